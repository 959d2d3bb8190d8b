import { startServer } from '../server.js';
import { dataDirOf, option, parseArgs } from './args.js';

/** `npm run serve`: the headless server with the console at its root URL. */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const host = option(args, 'host', 'IDV_HOST', '127.0.0.1');
  const port = Number(option(args, 'port', 'IDV_PORT', '8787'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port ${port}.`);
  const queue = option(args, 'queue', 'IDV_QUEUE_URL', '');
  const server = await startServer({
    host,
    port,
    dataDir: dataDirOf(args),
    logLevel: option(args, 'log-level', 'IDV_LOG_LEVEL', 'info'),
    ...(queue ? { queueUrl: queue } : {}),
  });
  process.stdout.write(`IDV Console listening on ${server.url} (data: ${server.services.store.dataDir})\n`);
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
