import { storedBindAddress } from '../storage/server-bind.js';
import { startServer } from '../server.js';
import { dataDirOf, option, parseArgs, type ParsedArgs } from './args.js';

/** Host and port: flag, else environment, else the console's stored choice, else 127.0.0.1:8787. */
async function bindAddress(args: ParsedArgs, dataDir: string): Promise<{ host: string; port: number }> {
  const stored = await storedBindAddress(dataDir);
  const host = option(args, 'host', 'IDV_HOST', stored?.host ?? '127.0.0.1');
  const port = Number(option(args, 'port', 'IDV_PORT', String(stored?.port ?? 8787)));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port ${port}.`);
  return { host, port };
}

/** `npm run serve`: the headless server with the console at its root URL. */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = dataDirOf(args);
  const { host, port } = await bindAddress(args, dataDir);
  const queue = option(args, 'queue', 'IDV_QUEUE_URL', '');
  const server = await startServer({
    host,
    port,
    dataDir,
    logLevel: option(args, 'log-level', 'IDV_LOG_LEVEL', 'info'),
    ...(queue ? { queueUrl: queue } : {}),
  });
  process.stdout.write(`IDV Console listening on ${server.url} (data: ${server.services.dataDir})\n`);
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
