import type { FingerprintPreviewResponse } from '../../../core/http/routes/console/api-types';

/**
 * Minutiae drawn over the print: a circle per minutia and a tick in its direction (ISO angles are
 * counter-clockwise with y pointing down, hence the minus on sin). Coordinates are scaled from the template's
 * size to the displayed image's.
 */
export function MinutiaeOverlay({
  preview,
  imageWidth,
  imageHeight,
}: {
  preview: FingerprintPreviewResponse;
  imageWidth: number;
  imageHeight: number;
}) {
  const sx = imageWidth / (preview.width || imageWidth);
  const sy = imageHeight / (preview.height || imageHeight);
  const r = Math.max(imageWidth, imageHeight) / 120;
  return (
    <g className="minutiae">
      {preview.minutiae.map((m, index) => {
        const x = m.x * sx;
        const y = m.y * sy;
        return (
          <g key={index} className={m.type === 'bifurcation' ? 'bifurcation' : 'ending'}>
            <circle cx={x} cy={y} r={r} fill="none" strokeWidth={r / 3} />
            <line
              x1={x}
              y1={y}
              x2={x + Math.cos(m.angle) * r * 2.5}
              y2={y - Math.sin(m.angle) * r * 2.5}
              strokeWidth={r / 3}
            />
          </g>
        );
      })}
    </g>
  );
}
