/**
 * A real PostgreSQL server for tests: Debian's binaries run `initdb` and `pg_ctl` in a temporary directory on a free
 * loopback port, as the `postgres` system user when the tests run as root (PostgreSQL refuses to run as root).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The newest PostgreSQL bin directory installed, or undefined. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

/** The uid and gid of the `postgres` system user, or undefined. */
function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresUnavailable(): string | undefined {
  if (!binDir()) return 'no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql)';
  if (process.getuid?.() === 0 && !postgresUser())
    return 'running as root and there is no postgres system user';
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  });
}

/** A running test server. */
export interface TestPostgres {
  /** URL of database `name` on this server (user postgres, trust authentication on loopback). */
  url(name?: string): string;
  /** Create a fresh, empty database; returns its URL. */
  createDatabase(): Promise<string>;
  /** Stop the server (fast shutdown: connections are cut), keeping its data. */
  stop(): void;
  /** Start it again on the same port and data. */
  start(): void;
  /** Stop the server and delete its directory. */
  destroy(): void;
  /** Cut every LISTEN connection to database `url` from the server side (notices sent meanwhile are lost to them). */
  cutListeners(url: string): Promise<void>;
}

/** Initialise and start a server in a temporary directory on a free loopback port. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  if (!bin) throw new Error(postgresUnavailable());
  const root = process.getuid?.() === 0;
  const user = root ? postgresUser() : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-pg-'));
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const run = (tool: string, args: string[]): void => {
    const command = path.join(bin, tool);
    if (user) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // fsync off: a test server's data need not survive a power cut, and it keeps the tests fast.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = (): void => {
    run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  start();
  let databases = 0;
  const url = (name = 'postgres'): string => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    url,
    async createDatabase() {
      const name = `idv_test_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async cutListeners(target: string) {
      const client = new pg.Client({ connectionString: target });
      await client.connect();
      try {
        await client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
        );
      } finally {
        await client.end();
      }
    },
    stop() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    start,
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
