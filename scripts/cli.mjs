// `npm run keys|auth|audit|fp`: the administration commands as compiled JS (dist/cli.mjs <command> ...), the server
// bundle built first when missing or out of date.
import { ensureBuilt, runBuilt } from './build.mjs';

ensureBuilt({ parts: ['bundle'] });
await runBuilt('cli.mjs');
