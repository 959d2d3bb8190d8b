import { useEffect, useRef, useState } from 'react';
import { grabFrame, useLiveQuality, type LiveQuality } from '../hooks/use-live-quality';
import { asBox } from './result-boxes';
import { Spinner } from './notice';

/** The face the last quality check found, drawn over the live video (same letterboxing as the video). */
function LiveFaceBox({ quality, video }: { quality: LiveQuality; video: HTMLVideoElement | null }) {
  if (quality.kind !== 'result' || !video || video.videoWidth === 0) return null;
  const box = asBox(quality.result.details.face);
  if (!box) return null;
  const good = quality.result.issues.length === 0;
  return (
    <svg
      className="live-box"
      viewBox={`0 0 ${video.videoWidth} ${video.videoHeight}`}
      preserveAspectRatio="xMidYMid meet"
      aria-hidden="true"
    >
      <rect
        x={box.x}
        y={box.y}
        width={box.width}
        height={box.height}
        fill="none"
        strokeWidth={4}
        className={good ? 'ok' : 'warn'}
      />
    </svg>
  );
}

interface Props {
  /** Accessible name prefix, e.g. "Selfie" → "Start selfie camera". */
  subject: string;
  onCapture: (file: File) => void;
  /** Send frames to the face-quality check while the camera is on. */
  liveQuality: boolean;
}

function feedbackText(state: LiveQuality): { text: string; tone: string } {
  switch (state.kind) {
    case 'off':
      return { text: '', tone: 'muted' };
    case 'waiting':
      return { text: 'Checking the picture…', tone: 'muted' };
    case 'error':
      return { text: state.message, tone: 'error' };
    case 'result':
      return {
        text: state.result.message,
        tone: state.result.faceFound && state.result.issues.length === 0 ? 'ok' : 'warn',
      };
  }
}

/** Camera preview (getUserMedia) with live face-quality feedback and a capture button. */
export function CameraCapture({ subject, onCapture, liveQuality }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState('');
  const [starting, setStarting] = useState(false);
  const quality = useLiveQuality(video, stream !== null && liveQuality);
  const feedback = feedbackText(quality);

  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
    return () =>
      stream?.getTracks().forEach((track) => {
        track.stop();
      });
  }, [stream]);

  const start = async (): Promise<void> => {
    setError('');
    setStarting(true);
    try {
      setStream(
        await navigator.mediaDevices.getUserMedia({
          video: { width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        }),
      );
    } catch (caught) {
      setError(caught instanceof Error ? `Camera unavailable: ${caught.message}` : 'Camera unavailable.');
    } finally {
      setStarting(false);
    }
  };

  const capture = async (): Promise<void> => {
    if (!video.current) return;
    const blob = await grabFrame(video.current, 0.92);
    if (!blob) return;
    onCapture(
      new File([blob], `${subject.toLowerCase().replace(/\s+/g, '-')}-capture.jpg`, { type: 'image/jpeg' }),
    );
    setStream(null);
  };

  return (
    <div className="camera">
      <div className="camera-view" hidden={!stream}>
        <video ref={video} autoPlay playsInline muted aria-label={`${subject} camera preview`} />
        <LiveFaceBox quality={quality} video={video.current} />
      </div>
      {stream ? (
        <>
          <p
            className={`camera-feedback ${feedback.tone}`}
            aria-live="polite"
            data-testid={`${subject.toLowerCase().replace(/\s+/g, '-')}-feedback`}
          >
            {feedback.text}
          </p>
          <div className="row">
            <button type="button" className="primary" onClick={() => void capture()}>
              Capture {subject.toLowerCase()}
            </button>
            <button
              type="button"
              onClick={() => {
                setStream(null);
              }}
            >
              Stop camera
            </button>
          </div>
        </>
      ) : (
        <button type="button" onClick={() => void start()} disabled={starting}>
          {starting ? <Spinner label="Starting the camera…" /> : `Start ${subject.toLowerCase()} camera`}
        </button>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
