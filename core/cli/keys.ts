import { ApiKeyService } from '../services/api-keys.js';
import { Settings } from '../settings/settings.js';
import { openStore } from '../storage/open-store.js';
import { parseArgs, STORE_USAGE, storeOf } from './args.js';
import { runCli } from './run.js';

const USAGE = `Usage: npm run keys -- <command> [--data-dir DIR | --store URL]
  create --description "use case"   issue a key (printed once, alone on the last line)
  list                               list keys (prefix, description, created, last used, revoked)
  revoke ID                          revoke a key by id or prefix
${STORE_USAGE}`;

runCli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2));
  const [command, target] = args.positional;
  const store = await openStore(storeOf(args));
  const settings = await Settings.open(store.settings);
  try {
    const keys = new ApiKeyService(store.apiKeys, settings);
    switch (command) {
      case 'create': {
        const description = args.flags.description;
        if (typeof description !== 'string') throw new Error('create needs --description "..."');
        const created = await keys.create(description);
        process.stdout.write(
          `Issued key ${created.id} (prefix ${created.prefix}) for: ${created.description}\n`,
        );
        process.stdout.write('Store it now: it is not shown again.\n');
        process.stdout.write(`${created.key}\n`);
        return;
      }
      case 'list': {
        const rows = await keys.list();
        if (rows.length === 0) process.stdout.write('No API keys.\n');
        for (const k of rows) {
          const state = k.revokedAt ? `revoked ${k.revokedAt}` : 'active';
          process.stdout.write(
            `${k.id}  idv_${k.prefix}_…  ${state}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${k.description}\n`,
          );
        }
        return;
      }
      case 'revoke': {
        if (!target) throw new Error('revoke needs the key id or prefix');
        const revoked = await keys.revoke(target);
        process.stdout.write(`Revoked key ${revoked.id} (prefix ${revoked.prefix}).\n`);
        return;
      }
      default:
        throw new Error(`unknown command ${command ?? '(none)'}`);
    }
  } finally {
    settings.close();
    await store.close();
  }
});
