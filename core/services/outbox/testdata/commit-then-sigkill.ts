/**
 * Test child (relay.test.ts): commits one outbox row while its relay is connected, then dies by SIGKILL before the
 * relay can publish it: the crash window between commit and publish. Args: <dataDir> <natsUrl>.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { openStore } from '../../../storage/open-store.js';
import { sleep } from '../backoff.js';
import { startBrokerLink } from '../broker-link.js';

const [dataDir, url] = process.argv.slice(2);
if (!dataDir || !url) throw new Error('usage: commit-then-sigkill <dataDir> <natsUrl>');
const store = await openStore({ dataDir });
const link = startBrokerLink(store.outbox, url, { idlePollMs: 60_000 });
while (!link.publisher.isConnected()) await sleep(10);
const id = randomUUID();
await store.outbox.add({ id, subject: 'idv.events.test.crash', payload: { id, kind: 'crash-window' } });
// Report synchronously, then die before the relay, which nobody nudged, could run.
fs.writeSync(1, `${id}\n`);
process.kill(process.pid, 'SIGKILL');
