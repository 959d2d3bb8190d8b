/**
 * Printed marks for rendered cards, as SVG fragments in a 200x240 box: a coat of arms (the genuine mark)
 * and a look-alike (same shield, colours and banner, different charge and crest) for negative tests.
 */

/** Which printed mark a card carries. */
export type MarkKind = 'arms' | 'lookalike';

const WIDTH = 200;
const HEIGHT = 240;
const SHIELD = 'M30 60 L170 60 L170 140 Q170 200 100 228 Q30 200 30 140 Z';
const GOLD = '#c9a227';
const BLUE = '#1d4e89';

function banner(text: string): string {
  return `<path d="M12 196 L60 188 L100 194 L140 188 L188 196 L180 214 L188 232 L140 222 L100 228 L60 222 L12 232 L20 214 Z"
    fill="#f4efe1" stroke="${GOLD}" stroke-width="3"/>
  <text x="100" y="216" font-family="DejaVu Serif" font-weight="bold" font-size="15" text-anchor="middle"
    fill="#5b1a12" letter-spacing="2">${text}</text>`;
}

function eagle(): string {
  const feathers: string[] = [];
  for (let i = 0; i < 5; i++) {
    const y = 92 + i * 11;
    const reach = 62 - i * 7;
    feathers.push(`<polygon points="96,${y} ${96 - reach},${y - 14 + i * 2} ${96 - reach + 10},${y + 6}" />`);
    feathers.push(
      `<polygon points="104,${y} ${104 + reach},${y - 14 + i * 2} ${104 + reach - 10},${y + 6}" />`,
    );
  }
  return `<g fill="${GOLD}" stroke="#6b4f00" stroke-width="1.5">
    ${feathers.join('\n    ')}
    <ellipse cx="100" cy="118" rx="14" ry="30"/>
    <circle cx="100" cy="82" r="10"/>
    <polygon points="108,80 122,84 108,88"/>
    <polygon points="88,146 80,170 92,160 100,174 108,160 120,170 112,146"/>
    <rect x="90" y="108" width="20" height="22" fill="#b22234"/>
    <line x1="90" y1="115" x2="110" y2="115" stroke="#fff" stroke-width="2"/>
    <line x1="90" y1="123" x2="110" y2="123" stroke="#fff" stroke-width="2"/>
  </g>
  <circle cx="97" cy="80" r="2" fill="#000"/>`;
}

function crown(): string {
  return `<g fill="${GOLD}" stroke="#6b4f00" stroke-width="1.5">
    <polygon points="62,52 62,22 76,38 88,14 100,34 112,14 124,38 138,22 138,52"/>
    <rect x="60" y="48" width="80" height="9"/>
    <circle cx="88" cy="12" r="4"/><circle cx="112" cy="12" r="4"/><circle cx="62" cy="20" r="4"/>
    <circle cx="138" cy="20" r="4"/><circle cx="100" cy="30" r="3" fill="#b22234"/>
  </g>`;
}

function tower(): string {
  return `<g fill="${GOLD}" stroke="#6b4f00" stroke-width="1.5">
    <rect x="66" y="96" width="68" height="80"/>
    <rect x="60" y="82" width="14" height="16"/><rect x="82" y="82" width="14" height="16"/>
    <rect x="104" y="82" width="14" height="16"/><rect x="126" y="82" width="14" height="16"/>
    <path d="M88 176 L88 150 Q100 136 112 150 L112 176 Z" fill="${BLUE}"/>
    <rect x="76" y="110" width="10" height="16" fill="${BLUE}"/><rect x="114" y="110" width="10" height="16" fill="${BLUE}"/>
  </g>`;
}

function star(cx: number, cy: number, r: number): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.45;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(
      `${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`,
    );
  }
  return `<polygon points="${points.join(' ')}" fill="${GOLD}" stroke="#6b4f00" stroke-width="1.5"/>`;
}

/** The mark's SVG content (no outer `<svg>`), drawn in a 200x240 box. */
export function markSvgContent(kind: MarkKind): string {
  const shield = `<path d="${SHIELD}" fill="${BLUE}" stroke="${GOLD}" stroke-width="6"/>`;
  if (kind === 'arms') {
    const stars = [star(48, 76, 7), star(152, 76, 7), star(52, 150, 6), star(148, 150, 6)].join('');
    return `${shield}${stars}${eagle()}${crown()}${banner('UNITAS')}`;
  }
  const dots = [58, 80, 120, 142].map((x) => `<circle cx="${x}" cy="74" r="4" fill="${GOLD}"/>`).join('');
  return `${shield}${dots}${tower()}${star(100, 30, 22)}${banner('LIBERTAS')}`;
}

/** A standalone mark image as SVG text (what an operator would register), `scale` times 200x240. */
export function markSvg(kind: MarkKind, scale = 1): string {
  const w = Math.round(WIDTH * scale);
  const h = Math.round(HEIGHT * scale);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>${markSvgContent(kind)}</svg>`;
}

/** Natural size of a mark's drawing box. */
export const MARK_BOX = { width: WIDTH, height: HEIGHT } as const;
