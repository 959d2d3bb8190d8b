/**
 * Bundle entry of `dist/cli.mjs`: the administration commands as compiled JS, `node dist/cli.mjs <command> ...`
 * (what `npm run keys|auth|audit|fp` run).
 */
import { setWorkerEntry } from '../../core/workers/entry-location.js';

const COMMANDS: Record<string, () => Promise<unknown>> = {
  keys: () => import('../../core/cli/keys.js'),
  auth: () => import('../../core/cli/auth.js'),
  audit: () => import('../../core/cli/audit.js'),
  fp: () => import('../../core/cli/fp.js'),
};

setWorkerEntry(new URL('./worker.mjs', import.meta.url));
const command = process.argv[2] ?? '';
const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
if (load) {
  // Each command reads its own arguments from process.argv.slice(2), as when run from source.
  process.argv.splice(2, 1);
  await load();
} else {
  process.stderr.write(`Usage: node dist/cli.mjs <${Object.keys(COMMANDS).join('|')}> [arguments]\n`);
  process.exitCode = 2;
}
