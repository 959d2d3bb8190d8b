/** Run a CLI body: print usage and exit 2 on a usage error, the message and exit 1 on any other failure. */
export function runCli(usage: string, body: () => Promise<void>): void {
  body().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n\n${usage}\n`);
    process.exit(/unknown command|needs|usage/i.test(message) ? 2 : 1);
  });
}
