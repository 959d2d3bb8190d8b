// Types of what TypeScript code (tests) uses from build.mjs.

/** The checkout. */
export const ROOT: string;
/** Where `npm run build` writes. */
export const DIST: string;

/** A part of dist/ that is missing or older than its sources. */
export interface StalePart {
  part: 'bundle' | 'renderer';
  missing: boolean;
  /** The newest source, relative to the checkout, when the part is out of date. */
  changed?: string;
}
export function staleParts(out?: string): StalePart[];

/** The parts of an esbuild metafile the externals check reads. */
export interface BundleMetafile {
  outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
}
export function checkExternals(metafile: BundleMetafile, out: string): void;
