import { startServer } from '../server.js';
import { bindAddress } from '../services/bind-address.js';
import { redactUrl } from '../storage/postgres/postgres-store.js';
import { given, option, parseArgs, storeOf } from './args.js';
import { serveLimits } from './serve-options.js';

/** `npm run serve`: the headless server with the console at its root URL. */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const location = storeOf(args);
  // Flag, else environment, else the console's stored choice, else the defaults.
  const { host, port } = await bindAddress(location, {
    host: given(args, 'host', 'IDV_HOST'),
    port: given(args, 'port', 'IDV_PORT'),
  });
  const queue = option(args, 'queue', 'IDV_QUEUE_URL', '');
  const limits = serveLimits(args);
  const server = await startServer({
    ...limits,
    host,
    port,
    dataDir: location.dataDir,
    store: location.url,
    templateKeyFile: given(args, 'template-key-file', 'IDV_TEMPLATE_KEY_FILE'),
    logLevel: option(args, 'log-level', 'IDV_LOG_LEVEL', 'info'),
    ...(queue ? { queueUrl: queue } : {}),
  });
  const records = location.url ? `store: ${redactUrl(location.url)}` : `data: ${server.services.dataDir}`;
  process.stdout.write(`IDV Console listening on ${server.url} (${records})\n`);
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `IDV Console failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
