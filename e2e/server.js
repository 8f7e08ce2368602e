// Global setup: start the real server on a fresh temporary data directory and
// a free port; the teardown function it returns stops it and removes the data.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';

function freePort() {
  return new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

export default async function globalSetup() {
  const bin = resolve(process.env.BLUEBIRD_BIN || '../bin/bluebird');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run make build`);
  const dir = mkdtempSync(join(tmpdir(), 'bluebird-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', dir, '--log-level', 'warn'], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  process.env.BLUEBIRD_E2E_URL = url;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  };
}
