// End-to-end tests: the real binary (../bin/bluebird, built by `make build`)
// on a temporary SQLite database, driven in Debian's Chromium.
import { defineConfig } from '@playwright/test';

const workers = Number(process.env.BLUEBIRD_E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers, each with a server and database of its own (server.js): a spec file runs in one
  // worker, its tests in order. BLUEBIRD_E2E_WORKERS=1 runs everything on one server.
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: [['list']],
  globalSetup: './server.js',
  use: {
    // the server of this worker (TEST_PARALLEL_INDEX is set in each worker process)
    baseURL: process.env.BLUEBIRD_E2E_URLS?.split(',')[Number(process.env.TEST_PARALLEL_INDEX ?? 0)],
    viewport: { width: 1400, height: 850 },
    locale: 'zh-CN',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    },
  },
  outputDir: './test-results',
});
