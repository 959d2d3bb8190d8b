import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';

interface Props {
  /** Visible label; also the accessible name of the file input. */
  label: string;
  file: File | null;
  onFile: (file: File | null) => void;
  /** Shown instead of the drop zone once a file is picked (a preview with overlays). */
  preview?: ReactNode;
  hint?: string;
}

const ACCEPT = 'image/jpeg,image/png,image/webp,image/tiff,image/bmp';

/** Pick an image from a file dialog or by dragging it onto the zone. */
export function ImagePicker({ label, file, onFile, preview, hint }: Props) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent): void => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };

  return (
    <div className="image-picker">
      <label htmlFor={inputId} className="picker-label">
        {label}
      </label>
      <div
        role="group"
        aria-label={`${label} drop zone`}
        className={`drop-zone${over ? ' over' : ''}${file ? ' has-file' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => {
          setOver(false);
        }}
        onDrop={onDrop}
      >
        {file && preview ? (
          preview
        ) : (
          <p className="muted">{hint ?? 'Drop an image here, or choose a file.'}</p>
        )}
      </div>
      <div className="picker-actions">
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={ACCEPT}
          onChange={(e) => {
            onFile(e.target.files?.[0] ?? null);
          }}
        />
        {file && (
          <button
            type="button"
            className="link"
            onClick={() => {
              if (input.current) input.current.value = '';
              onFile(null);
            }}
          >
            Clear
          </button>
        )}
      </div>
    </div>
  );
}
