// `npm run serve`: the headless server as compiled JS (dist/server.mjs), built first when missing or out of date.
import { ensureBuilt, runBuilt } from './build.mjs';

ensureBuilt();
await runBuilt('server.mjs');
