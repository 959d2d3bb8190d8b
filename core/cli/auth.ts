import { ApiKeyService, type AuthMode } from '../services/api-keys.js';
import { openStore } from '../storage/db.js';
import { dataDirOf, parseArgs } from './args.js';
import { runCli } from './run.js';

const USAGE = `Usage: npm run auth -- mode [observe|enforce] [--data-dir DIR]
  mode            print the current auth mode
  mode enforce    requests without a valid x-api-key answer 401
  mode observe    such requests are logged and processed (SPEC 5's current behaviour)`;

runCli(USAGE, () => {
  const args = parseArgs(process.argv.slice(2));
  const [command, value] = args.positional;
  if (command !== 'mode') throw new Error(`unknown command ${command ?? '(none)'}`);
  const store = openStore(dataDirOf(args));
  try {
    const keys = new ApiKeyService(store.db);
    if (value !== undefined) {
      if (value !== 'observe' && value !== 'enforce')
        throw new Error('mode needs observe or enforce (usage)');
      keys.setMode(value satisfies AuthMode);
    }
    process.stdout.write(`Auth mode: ${keys.mode()}\n`);
  } finally {
    store.close();
  }
});
