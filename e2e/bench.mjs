// Browser benchmark (issue #3 "Speed"): JavaScript loaded for /login (gzip),
// login submit → interactive /wel/index, and long tasks while a 200-row page
// renders and scrolls. Starts its own server on a temporary database.
//   node bench.mjs            (after `make build`)
import { chromium } from '@playwright/test';
import { createHash } from 'node:crypto';
import globalSetup from './server.js';

const stop = await globalSetup();
const base = process.env.BLUEBIRD_E2E_URL;
const md5 = (s) => createHash('md5').update(s).digest('hex');
const basic = 'Basic c2FiZXI6c2FiZXJfc2VjcmV0';

// 200 users so that a 200-row page has something to show
const tok = await (await fetch(`${base}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5('admin')}&grant_type=password&scope=all`, { method: 'POST', headers: { Authorization: basic } })).json();
const auth = { Authorization: basic, 'Blade-Auth': `bearer ${tok.access_token}`, 'Content-Type': 'application/json' };
for (let i = 0; i < 200; i++) {
  await fetch(`${base}/api/blade-user/submit`, { method: 'POST', headers: auth, body: JSON.stringify({ account: `bench${i}`, name: `用户${i}`, realName: `用户${i}`, password: 'bench123', roleId: tok.role_id, deptId: tok.dept_id, phone: `139${String(i).padStart(8, '0')}` }) });
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
const loginJs = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))
  .reduce((n, e) => n + e.encodedBodySize, 0));
console.log(`JavaScript loaded for /login: ${(loginJs / 1024).toFixed(1)} KB (gzip as served)`);

await page.getByPlaceholder('请输入账号').fill('admin');
await page.getByPlaceholder('请输入密码').fill('admin');
const t0 = Date.now();
await page.locator('form[name=login] button[type=submit]').click();
await page.getByText('欢迎使用').first().waitFor();
await page.locator('.ant-layout-sider').getByText('系统管理', { exact: true }).waitFor();
console.log(`login submit → interactive /wel/index: ${Date.now() - t0} ms (first visit, cold cache)`);

await page.goto(`${base}/system/user`);
await page.locator('.ant-table-row').first().waitFor();
await page.waitForTimeout(500);
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: false });
});
// choose 200 rows per page: the page then renders as a virtual table, so count the rows the server sent and
// check that scrolling reaches the last one
const listed = page.waitForResponse((r) => r.url().includes('/api/blade-user/page') && r.url().includes('size=200'));
await page.locator('.ant-pagination-options .ant-select').click();
await page.getByText('200 条/页').click();
const rows = (await (await listed).json()).data.records.length;
const holder = page.locator('.ant-table-tbody-virtual-holder');
await holder.waitFor();
await holder.hover();
const lastIndex = () => page.evaluate(() => Math.max(...[...document.querySelectorAll('.ant-table-row')].map((r) => Number(r.children[1]?.textContent) || 0)));
for (let y = 0; y < 40 && (await lastIndex()) < rows; y++) { await page.mouse.wheel(0, 400); await page.waitForTimeout(30); }
const reached = await lastIndex();
if (reached < rows) throw new Error(`scrolling reached row ${reached} of ${rows}`);
for (let y = 0; y < 40; y++) { await page.mouse.wheel(0, -400); await page.waitForTimeout(30); }
await page.waitForTimeout(300);
const long = await page.evaluate(() => window.__long);
console.log(`${rows}-row page render + scroll: ${long.length} long tasks, longest ${long.length ? Math.max(...long).toFixed(0) : 0} ms`);
await browser.close();
await stop();
