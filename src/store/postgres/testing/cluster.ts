import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster for tests and benches: initdb in a temp folder, a server on a
 * free 127.0.0.1 port, run as a non-root user (PostgreSQL refuses root). Debian's binaries live
 * under /usr/lib/postgresql/<version>/bin; without them this fails loudly, never skips.
 */
export interface TestCluster {
  /** `postgres://paideia@127.0.0.1:<port>/paideia`. */
  readonly url: string;
  readonly port: number;
  /** Stop the server (fast: open connections are cut, as in a restart). */
  stop(): void;
  /** Start it again on the same port, with its data. */
  start(): void;
  /** Stop it and delete its folder. */
  destroy(): void;
}

export interface ClusterOptions {
  /** fsync off: for tests, whose data may go; benches keep PostgreSQL's default durability. */
  durable?: boolean;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter(v => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql, as .ci/run does');
  return join(root, versions[0]!, 'bin');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Run a binary as the unprivileged `postgres` user when we are root, else as ourselves. */
function runAs(bin: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startTestCluster(o: ClusterOptions = {}): Promise<TestCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'paideia-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  runAs(join(bin, 'initdb'), ['-D', data, '-U', 'paideia', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const settings = [
    `-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", '-c max_connections=200',
    ...(o.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ');
  const start = () => {
    runAs(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-o', settings, '-w', '-t', '60', 'start']);
  };
  const stop = () => {
    runAs(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  start();
  runAs(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'paideia', 'paideia']);
  let running = true;
  return {
    url: `postgres://paideia@127.0.0.1:${port}/paideia`,
    port,
    stop() {
      stop();
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      if (running) stop();
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database in the cluster (one per conformance test, so tests never share rows). */
export function createDatabase(cluster: TestCluster, name: string): string {
  runAs(join(binDir(), 'createdb'), ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'paideia', name]);
  return cluster.url.replace(/\/paideia$/, `/${name}`);
}
