/** One decoded character with its probability and the runner-up characters at the same position. */
export interface CtcChar {
  char: string;
  /** Highest probability of `char` over the time steps it spans. */
  prob: number;
  /** Other allowed characters seen at this position (for check-digit repair): see runnersUp. */
  alternatives: { char: string; prob: number }[];
  /** Centre of the character's time steps (one step is 8 input pixels in PP-OCR): locates dropped characters. */
  frame: number;
}

/** A decoded line. */
export interface CtcLine {
  text: string;
  chars: CtcChar[];
  /** Mean character probability (0 when the line is empty). */
  confidence: number;
  /**
   * Share of the non-blank probability that went to characters outside the allowed set (0–1): high when the
   * line is not text of that alphabet at all (lower-case print, a picture, an MRZ read upside down).
   */
  foreign: number;
  /**
   * Lower-case letters the whole model reads (no mask) and their mean probability: words of print read the right
   * way up. An MRZ has none; read upside down, its fillers read as `>` and its capitals as capitals or unsurely.
   */
  lowerCase?: { count: number; confidence: number };
  /**
   * Where the time steps fall on the image recognised, set by a recogniser that resizes it: a character's column is
   * `origin + frame * step` (image pixels).
   */
  columns?: { origin: number; step: number };
}

/** The classes a decoder may emit: class index → character. Index 0 is the CTC blank. */
export type CtcCharset = ReadonlyMap<number, string>;

/** Below this, no allowed class is seen at a step: another script's character is not read as an MRZ one. */
const MIN_ALLOWED = 0.01;

/** Kind of a character: letter, digit or other (the MRZ filler), the classes a field may restrict itself to. */
function kindOf(char: string): number {
  return /\p{L}/u.test(char) ? 0 : /\p{N}/u.test(char) ? 1 : 2;
}

/**
 * Runner-ups of a position, best first: the `count` best, then the best of each kind (letter, digit, other) not
 * among them, so a field that takes only letters (or only digits) still has the recogniser's best of that kind.
 * `ranked` is best first and excludes the reading itself.
 */
export function runnersUp<T extends { char: string }>(ranked: readonly T[], count: number): T[] {
  const out = ranked.slice(0, count);
  const kinds = new Set(out.map((r) => kindOf(r.char)));
  for (const r of ranked.slice(count)) {
    const kind = kindOf(r.char);
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    out.push(r);
  }
  return out;
}

const groupsOf = new WeakMap<CtcCharset, number[][]>();

/**
 * The charset's classes grouped by the character they read as (a letter and its full-width form are one: their mass
 * is summed under the group's first class); made once per charset.
 */
function classGroups(charset: CtcCharset): number[][] {
  let groups = groupsOf.get(charset);
  if (!groups) {
    const members = new Map<string, number[]>();
    for (const [c, char] of charset) members.set(char, [...(members.get(char) ?? []), c]);
    groups = [...members.values()];
    groupsOf.set(charset, groups);
  }
  return groups;
}

/**
 * Greedy CTC decoding of a [steps × classes] probability matrix restricted to `charset` (every other class
 * but the blank is masked out), keeping each emitted character's `topK - 1` best runner-ups and the best of each
 * kind among the rest (see runnersUp).
 */
export function decodeCtc(
  probs: Float32Array,
  steps: number,
  classes: number,
  charset: CtcCharset,
  topK = 3,
): CtcLine {
  const allowed = classGroups(charset);
  const mass = new Float64Array(allowed.length);
  const chars: CtcChar[] = [];
  let previous = 0;
  let current: Map<number, number> | null = null;
  let firstStep = 0;
  let lastStep = 0;
  let foreignMass = 0;
  let inkMass = 0;
  const flush = (): void => {
    if (!current) return;
    const ranked = [...current.entries()].sort((a, b) => b[1] - a[1]);
    const [best, ...rest] = ranked;
    if (best) {
      chars.push({
        char: charset.get(best[0]) ?? '',
        prob: best[1],
        alternatives: runnersUp(
          rest.map(([c, p]) => ({ char: charset.get(c) ?? '', prob: p })),
          topK - 1,
        ),
        frame: (firstStep + lastStep) / 2,
      });
    }
    current = null;
  };
  for (let t = 0; t < steps; t++) {
    const base = t * classes;
    const blank = probs[base] ?? 0;
    let topClass = 0;
    let topProb = 0;
    let allowedSum = blank;
    for (let k = 0; k < allowed.length; k++) {
      const classes = allowed[k]!;
      let p = 0;
      for (const c of classes) p += probs[base + c] ?? 0;
      mass[k] = p;
      allowedSum += p;
      if (p > topProb) {
        topProb = p;
        topClass = classes[0]!;
      }
    }
    // Blank or character is decided on the whole distribution: where characters together outweigh the blank,
    // the step holds one even when its mass is split between look-alikes (0/O) and no allowed class alone beats
    // the blank; the mask then says which. Only if the allowed classes hold at least as much as the others: a
    // step of another script (or of an MRZ upside down) stays blank.
    const inked =
      topProb <= blank && 1 - blank > blank && allowedSum - blank >= 1 - allowedSum && topProb > MIN_ALLOWED;
    const bestClass = topProb > blank || inked ? topClass : 0;
    foreignMass += Math.max(0, 1 - allowedSum);
    inkMass += Math.max(0, 1 - blank);
    if (bestClass === 0) {
      flush();
      previous = 0;
      continue;
    }
    if (bestClass !== previous) flush();
    previous = bestClass;
    if (!current) {
      current = new Map();
      firstStep = t;
    }
    lastStep = t;
    // Renormalise over the allowed classes so masked-out scripts do not dilute the confidence.
    // A step the blank would have won is weighed among the characters only (given that one is there).
    const total = inked ? allowedSum - blank : allowedSum;
    const scale = total > 0 ? 1 / total : 0;
    for (let k = 0; k < allowed.length; k++) {
      const c = allowed[k]![0]!;
      const p = mass[k]! * scale;
      if (p > MIN_ALLOWED && p > (current.get(c) ?? 0)) current.set(c, p);
    }
  }
  flush();
  const text = chars.map((c) => c.char).join('');
  const confidence = chars.length ? chars.reduce((s, c) => s + c.prob, 0) / chars.length : 0;
  return { text, chars, confidence, foreign: inkMass > 0 ? Math.min(1, foreignMass / inkMass) : 0 };
}

/**
 * Greedy CTC reading with every class allowed, counting only its lower-case letters (`lower`: their classes) and
 * their mean probability.
 */
export function readLowerCase(
  probs: Float32Array,
  steps: number,
  classes: number,
  lower: ReadonlySet<number>,
): { count: number; confidence: number } {
  let count = 0;
  let sum = 0;
  let previous = 0;
  let run = 0;
  for (let t = 0; t < steps; t++) {
    const base = t * classes;
    let top = 0;
    let topProb = probs[base] ?? 0;
    // A blank over one half outweighs any class: most steps are such, and need no scan of the 6,625 classes.
    if (topProb <= 0.5)
      for (let c = 1; c < classes; c++) {
        const p = probs[base + c]!;
        if (p > topProb) {
          topProb = p;
          top = c;
        }
      }
    if (top !== previous && run > 0) {
      count++;
      sum += run;
      run = 0;
    }
    if (top !== 0 && lower.has(top)) run = Math.max(run, topProb);
    previous = top;
  }
  if (run > 0) {
    count++;
    sum += run;
  }
  return { count, confidence: count ? sum / count : 0 };
}

/** Classes of a PaddleOCR dictionary that are lower-case letters (of any cased script). */
export function lowerCaseClasses(dictionary: readonly string[]): Set<number> {
  const lower = new Set<number>();
  dictionary.forEach((entry, index) => {
    if (entry.length === 1 && entry !== entry.toUpperCase() && entry === entry.toLowerCase())
      lower.add(index + 1);
  });
  return lower;
}

/** Build a charset from a PaddleOCR dictionary (one entry per line, class = line index + 1) and the allowed characters. */
export function charsetFromDictionary(dictionary: readonly string[], allowedChars: string): CtcCharset {
  const map = new Map<number, string>();
  dictionary.forEach((entry, index) => {
    // Full-width forms (U+FF01-FF5E: `９`, `Ａ`, `＜`) are the same characters: the model gives OCR-B digits much of
    // their mass there.
    const char =
      entry.length === 1 && entry >= '\uff01' && entry <= '\uff5e' ? entry.normalize('NFKC') : entry;
    if (char.length === 1 && allowedChars.includes(char)) map.set(index + 1, char);
  });
  return map;
}
