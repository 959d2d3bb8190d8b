import { useEffect, useState, type RefObject } from 'react';
import type { FaceQualityResponse } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';

/** Capture the current video frame as a JPEG blob. */
export function grabFrame(video: HTMLVideoElement, quality = 0.85): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context || canvas.width === 0) return Promise.resolve(null);
  context.drawImage(video, 0, 0);
  return new Promise((resolve) => {
    canvas.toBlob(resolve, 'image/jpeg', quality);
  });
}

/** Live feedback state: the last answer, or why there is none. */
export type LiveQuality =
  | { kind: 'off' }
  | { kind: 'waiting' }
  | { kind: 'result'; result: FaceQualityResponse }
  | { kind: 'error'; message: string };

/**
 * While `enabled`, send a frame to the face-quality check at most every `intervalMs`, never more than one in
 * flight (a slow server slows the feedback instead of queueing frames).
 */
export function useLiveQuality(
  video: RefObject<HTMLVideoElement | null>,
  enabled: boolean,
  intervalMs = 900,
): LiveQuality {
  const [state, setState] = useState<LiveQuality>({ kind: 'off' });
  useEffect(() => {
    if (!enabled) {
      setState({ kind: 'off' });
      return undefined;
    }
    setState({ kind: 'waiting' });
    const controller = new AbortController();
    let timer = 0;
    const tick = async (): Promise<void> => {
      const element = video.current;
      const frame = element && element.readyState >= 2 ? await grabFrame(element, 0.7) : null;
      if (frame && !controller.signal.aborted) {
        const form = new FormData();
        form.append('image', frame, 'frame.jpg');
        try {
          const result = await consoleApi.faceQuality(form, controller.signal);
          setState({ kind: 'result', result });
        } catch (caught) {
          if (!controller.signal.aborted) setState({ kind: 'error', message: errorMessage(caught) });
        }
      }
      if (!controller.signal.aborted) timer = window.setTimeout(() => void tick(), intervalMs);
    };
    timer = window.setTimeout(() => void tick(), 200);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [enabled, intervalMs, video]);
  return state;
}
