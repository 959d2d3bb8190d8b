import { ApiKeyService, type AuthMode } from '../services/api-keys.js';
import { Settings } from '../settings/settings.js';
import { openStore } from '../storage/open-store.js';
import { parseArgs, STORE_USAGE, storeOf } from './args.js';
import { runCli } from './run.js';

const USAGE = `Usage: npm run auth -- mode [observe|enforce] [--data-dir DIR | --store URL]
  mode            print the current auth mode
  mode enforce    requests without a valid x-api-key answer 401
  mode observe    such requests are logged and processed (SPEC 5's current behaviour)
${STORE_USAGE}`;

runCli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2));
  const [command, value] = args.positional;
  if (command !== 'mode') throw new Error(`unknown command ${command ?? '(none)'}`);
  const store = await openStore(storeOf(args));
  const settings = await Settings.open(store.settings);
  try {
    const keys = new ApiKeyService(store.apiKeys, settings);
    if (value !== undefined) {
      if (value !== 'observe' && value !== 'enforce')
        throw new Error('mode needs observe or enforce (usage)');
      await keys.setMode(value satisfies AuthMode);
    }
    process.stdout.write(`Auth mode: ${keys.mode()}\n`);
  } finally {
    settings.close();
    await store.close();
  }
});
