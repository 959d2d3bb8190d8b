import type { DailyStatView } from '../../../core/http/routes/console/api-types';
import { formatDayMonth } from '../format';

const W = 560;
const H = 180;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const STEP_COLOURS: Record<string, string> = {
  fingerprint: '#2563eb',
  face_match: '#d97706',
  id_card_check: '#7c3aed',
};

function xOf(index: number, count: number): number {
  const inner = W - PAD.left - PAD.right;
  return PAD.left + (count <= 1 ? inner / 2 : (index * inner) / (count - 1));
}

function Axes({ max, format, days }: { max: number; format: (v: number) => string; days: DailyStatView[] }) {
  const ticks = [0, 0.5, 1].map((f) => f * max);
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  return (
    <g className="axes">
      {ticks.map((t) => {
        const y = H - PAD.bottom - (t / (max || 1)) * (H - PAD.top - PAD.bottom);
        return (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} className="grid" />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end">
              {format(t)}
            </text>
          </g>
        );
      })}
      {days.map((d, i) =>
        i % labelEvery === 0 ? (
          <text key={d.day} x={xOf(i, days.length)} y={H - 8} textAnchor="middle">
            {formatDayMonth(d.day)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** Requests per day as bars. */
export function VolumeChart({ days }: { days: DailyStatView[] }) {
  const max = Math.max(1, ...days.map((d) => d.total));
  const band = (W - PAD.left - PAD.right) / Math.max(days.length, 1);
  return (
    <figure className="chart">
      <figcaption>Daily request volume</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Daily request volume over ${days.length} days, peak ${max}`}
      >
        <Axes max={max} format={(v) => String(Math.round(v))} days={days} />
        {days.map((d, i) => {
          const h = (d.total / max) * (H - PAD.top - PAD.bottom);
          return (
            <rect
              key={d.day}
              className="bar"
              x={xOf(i, days.length) - band * 0.35}
              width={band * 0.7}
              y={H - PAD.bottom - h}
              height={h}
            >
              <title>{`${d.day}: ${d.total} requests, ${d.rejected} rejected`}</title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}

/** Rejection rate per day, one line per failed step. */
export function RejectionChart({ days }: { days: DailyStatView[] }) {
  const steps = Object.keys(STEP_COLOURS);
  const rates = days.map((d) =>
    Object.fromEntries(steps.map((s) => [s, d.total ? (d.byStep[s] ?? 0) / d.total : 0])),
  );
  const max = Math.max(0.05, ...rates.flatMap((r) => Object.values(r)));
  const yOf = (v: number): number => H - PAD.bottom - (v / max) * (H - PAD.top - PAD.bottom);
  return (
    <figure className="chart">
      <figcaption>
        Rejection rate by step{' '}
        {steps.map((s) => (
          <span key={s} className="legend" style={{ color: STEP_COLOURS[s] }}>
            ● {s}
          </span>
        ))}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Daily rejection rate by failed step">
        <Axes max={max} format={(v) => `${Math.round(v * 100)}%`} days={days} />
        {steps.map((s) => (
          <g key={s}>
            <polyline
              fill="none"
              stroke={STEP_COLOURS[s]}
              strokeWidth={2}
              points={rates.map((r, i) => `${xOf(i, days.length)},${yOf(r[s] ?? 0)}`).join(' ')}
            />
            {rates.map((r, i) => (
              <circle key={i} cx={xOf(i, days.length)} cy={yOf(r[s] ?? 0)} r={3} fill={STEP_COLOURS[s]}>
                <title>{`${days[i]?.day ?? ''} ${s}: ${((r[s] ?? 0) * 100).toFixed(1)}%`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
    </figure>
  );
}
