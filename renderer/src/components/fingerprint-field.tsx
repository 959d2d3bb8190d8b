import { useEffect, useState } from 'react';
import type { FingerprintPreviewResponse } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { useImageFileState } from '../hooks/use-image-file';
import { useSession } from '../hooks/session-context';
import { AnnotatedImage } from './annotated-image';
import { ImagePicker } from './image-picker';
import { MinutiaeOverlay } from './minutiae-overlay';
import { Spinner } from './notice';

/** Quality score bands shown beside the preview. */
function qualityBand(quality: number): string {
  if (quality >= 60) return 'good';
  if (quality >= 40) return 'fair';
  return 'poor';
}

/** Fingerprint picker with a server-side preview: quality score and minutiae drawn over the print. */
export function FingerprintField({
  label,
  file,
  onFile,
}: {
  label: string;
  file: File | null;
  onFile: (file: File | null) => void;
}) {
  const { engines } = useSession();
  const local = useImageFileState(file);
  const [preview, setPreview] = useState<FingerprintPreviewResponse | null>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'error'>('idle');
  const [error, setError] = useState('');

  useEffect(() => {
    setPreview(null);
    setError('');
    if (!file || !engines.fingerprintPreview) return undefined;
    let live = true;
    setState('busy');
    const form = new FormData();
    form.append('file', file);
    consoleApi.fingerprintPreview(form).then(
      (result) => {
        if (!live) return;
        setPreview(result);
        setState('idle');
      },
      (caught: unknown) => {
        if (!live) return;
        setError(errorMessage(caught));
        setState('error');
      },
    );
    return () => {
      live = false;
    };
  }, [file, engines.fingerprintPreview]);

  // The server's PNG when there is one: it is what the minutiae were found in, and browsers cannot draw TIFF.
  const image = preview?.image ?? (local === 'undecodable' ? null : local);
  const overlay = image && (
    <AnnotatedImage
      image={image}
      label={preview ? `Fingerprint with ${preview.minutiae.length} minutiae marked` : 'Fingerprint'}
    >
      {preview && <MinutiaeOverlay preview={preview} imageWidth={image.width} imageHeight={image.height} />}
    </AnnotatedImage>
  );

  return (
    <div className="fingerprint-field">
      <ImagePicker
        label={label}
        file={file}
        onFile={onFile}
        preview={
          overlay ||
          (file && <p className="muted">{state === 'busy' ? 'Preparing the preview…' : 'No preview.'}</p>)
        }
        hint="Drop a fingerprint image here, or choose a file."
      />
      <div className="preview-status" aria-live="polite">
        {state === 'busy' && <Spinner label="Analysing the print…" />}
        {preview && (
          <p data-testid="fingerprint-quality">
            Quality{' '}
            <strong className={`quality ${qualityBand(preview.quality)}`}>
              {Math.round(preview.quality)}
            </strong>{' '}
            / 100 · {preview.minutiae.length} minutiae
          </p>
        )}
        {preview?.fingerprint_likeness !== undefined && (
          <p data-testid="fingerprint-likeness">
            Looks like a fingerprint: <strong>{Math.round(preview.fingerprint_likeness)}</strong> / 100
          </p>
        )}
        {preview?.not_a_fingerprint && (
          <p className="error" data-testid="fingerprint-not-a-print">
            Not a fingerprint: {preview.not_a_fingerprint}
          </p>
        )}
        {state === 'error' && <p className="error">{error}</p>}
        {local === 'undecodable' && !preview && state !== 'busy' && (
          <p className="muted">This browser cannot draw this image format; it is sent to the server as is.</p>
        )}
        {file && !engines.fingerprintPreview && (
          <p className="muted">Quality preview is not available on this server.</p>
        )}
      </div>
    </div>
  );
}
