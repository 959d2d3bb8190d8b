import type { ReactNode } from 'react';
import { CameraCapture } from './camera-capture';
import { ImagePicker } from './image-picker';

interface Props {
  /** "Selfie" or "ID card". */
  subject: string;
  file: File | null;
  onFile: (file: File | null) => void;
  /** Preview (with overlays) of the current image. */
  preview?: ReactNode;
  liveQuality: boolean;
}

/** An image from a file, drag and drop, or the camera. */
export function PhotoSource({ subject, file, onFile, preview, liveQuality }: Props) {
  return (
    <div className="photo-source">
      <ImagePicker label={`${subject} image`} file={file} onFile={onFile} preview={preview} />
      {!file && <CameraCapture subject={subject} onCapture={onFile} liveQuality={liveQuality} />}
    </div>
  );
}
