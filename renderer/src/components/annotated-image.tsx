import type { ReactNode } from 'react';
import type { LoadedImage } from '../hooks/use-image-file';

interface Props {
  image: LoadedImage;
  /** Accessible description of the image and what is drawn on it. */
  label: string;
  /** SVG shapes in the image's own pixel coordinates. */
  children?: ReactNode;
}

/** An image with SVG overlays drawn in image pixel coordinates, scaled together to fit. */
export function AnnotatedImage({ image, label, children }: Props) {
  return (
    <svg className="annotated" viewBox={`0 0 ${image.width} ${image.height}`} role="img" aria-label={label}>
      <image href={image.url} width={image.width} height={image.height} />
      {children}
    </svg>
  );
}

/** A face or region box in image pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A labelled rectangle overlay. */
export function BoxOverlay({
  box,
  label,
  tone,
  scale,
}: {
  box: Box;
  label: string;
  tone: 'ok' | 'bad' | 'info';
  scale: number;
}) {
  return (
    <g className={`overlay ${tone}`}>
      <rect x={box.x} y={box.y} width={box.width} height={box.height} strokeWidth={3 * scale} fill="none" />
      <text x={box.x} y={Math.max(box.y - 6 * scale, 14 * scale)} fontSize={16 * scale}>
        {label}
      </text>
    </g>
  );
}

/** Stroke scale so overlays look the same on small and large images (relative to a 600 px view). */
export function overlayScale(image: LoadedImage): number {
  return Math.max(image.width, image.height) / 600;
}
