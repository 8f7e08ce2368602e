// Global setup: start one real server per Playwright worker, each on a fresh
// temporary data directory and a free port, so that workers share no data
// (playwright.config.js gives worker N the Nth URL); the teardown function it
// returns stops them and removes their data.
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

export default async function globalSetup(config) {
  const bin = resolve(process.env.BLUEBIRD_BIN || '../bin/bluebird');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run make build`);
  const servers = await Promise.all(Array.from({ length: config.workers }, () => startServer(bin)));
  process.env.BLUEBIRD_E2E_URLS = servers.map((s) => s.url).join(',');
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}

async function startServer(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'bluebird-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', dir, '--log-level', 'warn'], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  // The first start migrates and seeds (the regions alone are 40,000 rows): well under a second on an
  // idle machine, many on a loaded one. Wait for /readyz itself, not for a fixed number of tries; a
  // server that does not come up within two minutes, or exits, fails the run here instead of every test.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`${bin} exited before it was ready: ${JSON.stringify(exited)}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`${url}/readyz did not answer 200 within 120 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: async () => {
      if (!exited) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
