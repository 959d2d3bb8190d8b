import { AuditLog } from '../services/audit-log.js';
import { openStore } from '../storage/open-store.js';
import { parseArgs, STORE_USAGE, storeOf } from './args.js';
import { runCli } from './run.js';

const USAGE = `Usage: npm run audit -- <command> [--data-dir DIR | --store URL]
  verify          recompute the hash chain; exit 1 and name the first broken row if any
  tail [N]        print the last N rows (default 20)
${STORE_USAGE}`;

runCli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2));
  const [command, count] = args.positional;
  const store = await openStore(storeOf(args));
  try {
    const audit = new AuditLog(store.audit);
    switch (command) {
      case 'verify': {
        const result = await audit.verifyChain();
        process.stdout.write(`${result.message}\n`);
        if (!result.ok) process.exitCode = 1;
        return;
      }
      case 'tail': {
        const rows = (await audit.query({ limit: Number(count ?? 20) })).reverse();
        for (const r of rows) {
          process.stdout.write(
            `#${r.seq} ${r.time} ${r.method} ${r.route} ${r.httpStatus} ${r.resultStatus ?? '-'} step=${r.failedStep ?? '-'} key=${r.keyId ?? '-'} auth=${r.authOutcome} ${r.latencyMs.toFixed(1)}ms ${r.mobileMasked ?? ''}\n`,
          );
        }
        return;
      }
      default:
        throw new Error(`unknown command ${command ?? '(none)'}`);
    }
  } finally {
    await store.close();
  }
});
