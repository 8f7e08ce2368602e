// End-to-end tests: the real binary (../bin/bluebird, built by `make build`)
// on a temporary SQLite database, driven in Debian's Chromium.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: './server.js',
  use: {
    baseURL: process.env.BLUEBIRD_E2E_URL,
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
