// The console at 1400×850 and at 800 px, in zh and en (issue #13: columns that fit with a chooser for the
// rest, resizable dialogs, the four screen levels, the top-menu underline), and a screenshot of every
// platform screen at both sizes (written under test-results, looked at by whoever changes the layout).
import { mkdirSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { apiLogin, login } from './helpers.js';

const SIZES = [
  { name: 'wide', width: 1400, height: 850 },
  { name: 'narrow', width: 800, height: 850 },
];
const SHOTS = process.env.BLUEBIRD_SHOTS || 'test-results/layout-shots';

test.describe.configure({ mode: 'serial' });

// in-app navigation (a reload per screen would boot the app each time)
async function go(page, path) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path);
}

async function setLanguage(page, lng) {
  await page.evaluate((l) => localStorage.setItem('saber-language', JSON.stringify({ content: l, datetime: Date.now() })), lng);
  await page.reload();
  await expect(page.locator('.bb-shell')).toBeVisible();
}

// the leaves of the platform top menu (000), depth first
async function platformScreens(request) {
  const admin = await apiLogin(request);
  const top = await admin.get('/api/blade-system/menu/top-menu');
  const platform = top.find((m) => m.code === '000');
  const routes = await admin.get(`/api/blade-system/menu/routes?topMenuId=${platform.id}`);
  const out = [];
  const walk = (nodes) =>
    nodes.forEach((n) => {
      if (n.children?.length) walk(n.children);
      else if (n.path && !/^https?:|html$/.test(n.path)) out.push(n.path);
    });
  walk(routes);
  return out;
}

const pageOf = (page, path) => page.locator(`.bb-page[data-page="${path}"]`);
const userTable = (page) => pageOf(page, '/system/user').locator('.bb-resource');

for (const size of SIZES) {
  test.describe(`${size.width} px`, () => {
    let context;
    let page;
    test.beforeAll(async ({ browser, baseURL }) => {
      context = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, locale: 'zh-CN' });
      page = await context.newPage();
      // before signing in: the SMS code button stays inside the login form
      await page.goto('/login');
      await page.locator('.login-tabs button').nth(1).click();
      const form = await page.locator('form[name=phoneLogin]').boundingBox();
      const sms = await page.locator('.login-sms').boundingBox();
      expect(sms.x + sms.width).toBeLessThanOrEqual(form.x + form.width + 0.5);
      await login(page);
    });
    test.afterAll(async () => {
      await context.close();
    });

    test('the side menu follows the screen level', async () => {
      const sider = page.locator('.bb-sider');
      const toggle = page.getByRole('button', { name: '折叠' });
      if (size.width >= 992) {
        await expect(sider).toHaveCSS('width', '230px');
      } else {
        // 768-991: collapsed to its icons; the button opens it for a while
        await expect(sider).toHaveCSS('width', '64px');
        await toggle.click();
        await expect(sider).toHaveCSS('width', '230px');
        await toggle.click();
        await expect(sider).toHaveCSS('width', '64px');
        // below 768: no side menu beside the page, a drawer the button opens; choosing a page closes it
        await page.setViewportSize({ width: 700, height: size.height });
        await expect(sider).toHaveCount(0);
        await toggle.click();
        const drawer = page.locator('.bb-sider-drawer');
        await expect(drawer).toBeVisible();
        await drawer.getByText('系统管理', { exact: true }).click();
        // the submenu opens with a height animation: a click while it grows can land between items
        await expect(async () => {
          await drawer.getByText('参数管理', { exact: true }).click();
          await expect(page).toHaveURL(/\/system\/param/, { timeout: 2000 });
        }).toPass();
        await expect(drawer).toBeHidden();
        await page.setViewportSize({ width: size.width, height: size.height });
        await expect(sider).toHaveCSS('width', '64px');
      }
    });

    test('every column of the user list is shown or reachable by the chooser', async () => {
      await go(page, '/system/user');
      const table = userTable(page);
      await expect(table.locator('.ant-table-row').first()).toBeVisible();
      const headers = table.locator('.ant-table-thead th');
      // roles, departments and the enable switch without scrolling sideways (at 800 px the department is
      // among the columns the chooser lists)
      const box = await table.boundingBox();
      for (const name of size.width >= 992 ? ['所属角色', '所属部门', '启用'] : ['所属角色', '启用']) {
        const th = headers.filter({ hasText: name }).first();
        await expect(th).toBeVisible();
        const b = await th.boundingBox();
        expect(b.x + b.width, `${name} inside the table`).toBeLessThanOrEqual(box.x + box.width + 1);
      }
      // the search button is on the screen
      const search = table.getByRole('button', { name: /搜\s*索/ });
      const sb = await search.boundingBox();
      expect(sb.x + sb.width).toBeLessThanOrEqual(size.width);
      // the chooser lists every column; a hidden one shows once ticked, and the choice survives a reload
      await table.getByRole('button', { name: '列设置' }).click();
      const chooser = page.getByTestId('column-chooser');
      for (const name of ['登录账号', '用户姓名', '手机号码', '所属租户', '所属角色', '所属部门', '启用']) {
        await expect(chooser.getByText(name, { exact: true })).toBeVisible();
      }
      const phone = chooser.getByRole('checkbox', { name: '手机号码' });
      const wasShown = await phone.isChecked();
      await phone.setChecked(!wasShown);
      await expect(headers.filter({ hasText: '手机号码' })).toHaveCount(wasShown ? 0 : 1);
      await page.reload();
      await expect(table.locator('.ant-table-row').first()).toBeVisible();
      await expect(headers.filter({ hasText: '手机号码' })).toHaveCount(wasShown ? 0 : 1);
      await table.getByRole('button', { name: '列设置' }).click();
      await chooser.getByRole('button', { name: '恢复默认' }).click();
      await expect(headers.filter({ hasText: '手机号码' })).toHaveCount(wasShown ? 1 : 0);
      // the chooser is a popover its button closes (Esc does not): left open, it covered the next screen
      if (await chooser.isVisible()) await table.getByRole('button', { name: '列设置' }).click();
      await expect(chooser).toBeHidden();
    });

    test('the chosen dictionary row keeps its links readable; the horizontal dictionary shows names whole and the sort', async () => {
      await go(page, '/dict-horizontal/index');
      const parents = pageOf(page, '/dict-horizontal/index').locator('.bb-resource').first();
      const row = parents.locator('.ant-table-row').first();
      await expect(row).toBeVisible();
      const box = await parents.boundingBox();
      for (const name of ['字典名称', '字典排序']) {
        const th = parents.locator('.ant-table-thead th').filter({ hasText: name }).first();
        await expect(th, `${name} shown`).toBeVisible();
        const b = await th.boundingBox();
        expect(b.x + b.width, `${name} inside the table`).toBeLessThanOrEqual(box.x + box.width + 1);
      }
      // no dictionary name is cut off with an ellipsis
      const nameIndex = await parents.locator('.ant-table-thead th').evaluateAll((ths) => ths.findIndex((th) => th.textContent?.includes('字典名称')));
      const cut = await parents.locator('.ant-table-row').evaluateAll(
        (rows, i) =>
          rows
            .map((r) => r.querySelectorAll('td')[i])
            .filter((td) => {
              // the text's own box ends inside the cell (an ellipsis or a clipped name ends past it)
              const text = document.createRange();
              text.selectNodeContents(td);
              return text.getBoundingClientRect().right > td.getBoundingClientRect().right - 1;
            })
            .map((td) => td.textContent),
        nameIndex,
      );
      expect(cut, 'names cut off').toEqual([]);
      // the chosen row is a light tint: its blue links read as well as on a plain row (a solid blue row
      // left them at about 1:1)
      await row.locator('td').nth(nameIndex).click();
      await expect(row).toHaveClass(/bb-row-active/);
      const contrastOf = (tr) =>
        tr.evaluate((el) => {
          const rgb = (c) => (c.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number);
          const lum = ([r, g, b]) => {
            const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
          };
          const link = el.querySelector('.bb-row-btn:not(.bb-row-btn-danger)');
          const [a, b] = [lum(rgb(getComputedStyle(el.querySelector('td')).backgroundColor)), lum(rgb(getComputedStyle(link).color))];
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        });
      const chosen = await contrastOf(row);
      const plain = await contrastOf(parents.locator('.ant-table-row').nth(1));
      expect(chosen, `links on the chosen row ${chosen.toFixed(2)}:1, on a plain row ${plain.toFixed(2)}:1`).toBeGreaterThanOrEqual(plain * 0.85);
    });

    test('a dialog is resized by its corner, never below 400×300, and Esc closes it', async () => {
      await go(page, '/system/param');
      await pageOf(page, '/system/param').locator('.bb-resource').getByRole('button', { name: /新\s*增/ }).click();
      const box = page.locator('.bb-dialog-box').last();
      await expect(box).toBeVisible();
      // the opening zoom is over
      await expect(page.locator('.ant-modal[class*="ant-zoom"]')).toHaveCount(0);
      const handle = box.getByTestId('dialog-resize');
      const dragHandle = async (dx, dy) => {
        const h = await handle.boundingBox();
        await page.mouse.move(h.x + 7, h.y + 7);
        await page.mouse.down();
        await page.mouse.move(h.x + 7 + dx, h.y + 7 + dy, { steps: 4 });
        await page.mouse.up();
        return box.boundingBox();
      };
      const start = await box.boundingBox();
      const smaller = await dragHandle(-100, -60);
      expect(Math.round(smaller.width)).toBe(Math.round(start.width - 100));
      expect(Math.round(smaller.height)).toBe(Math.round(start.height - 60));
      // nothing under the handle was selected by the drag
      expect(await page.evaluate(() => String(window.getSelection()))).toBe('');
      const least = await dragHandle(-2000, -2000);
      expect(Math.round(least.width)).toBe(400);
      expect(Math.round(least.height)).toBe(300);
      await page.keyboard.press('Escape');
      await expect(box).toBeHidden();
      // the theme and error-log dialogs close on Esc every time, the button's tooltip showing over them or not
      for (const name of ['主题', '错误日志']) {
        for (let i = 0; i < 2; i++) {
          const button = page.locator('.bb-header').getByRole('button', { name, exact: true });
          await button.hover();
          await expect(page.locator('.ant-tooltip:visible')).toHaveCount(1);
          await button.click();
          const dialog = page.locator('.ant-modal-wrap:visible');
          await expect(dialog).toHaveCount(1);
          await page.keyboard.press('Escape');
          await expect(dialog).toHaveCount(0);
        }
      }
    });

    test('the top-menu underline follows the choice, one entry at a time', async () => {
      await go(page, '/wel/index');
      const top = page.locator('.bb-top-menu');
      // the entries drawn underlined (the selected one's ::after border; a hovered one only changes colour)
      const underlined = () =>
        top.locator('li.ant-menu-item').evaluateAll((lis) =>
          lis.filter((li) => getComputedStyle(li, '::after').borderBottomColor !== 'rgba(0, 0, 0, 0)' && getComputedStyle(li, '::after').borderBottomWidth !== '0px').map((li) => li.textContent));
      await top.getByText('官网管理', { exact: true }).click();
      await expect.poll(underlined).toEqual(['官网管理']);
      if (size.width < 1200) {
        // 产品数据 is folded into the overflow entry at this width
        await top.getByText('平台管理', { exact: true }).click();
        await expect.poll(underlined).toEqual(['平台管理']);
        return;
      }
      // 产品数据 opens its sibling application under /pdm/: underlined there from the first paint
      await top.getByText('产品数据', { exact: true }).click();
      await page.waitForURL(/\/pdm\//);
      await expect.poll(underlined).toEqual(['产品数据']);
      // collapsing the side menu shifts the header under the pointer: still one underline
      await page.getByRole('button', { name: '折叠' }).click();
      await expect.poll(underlined).toEqual(['产品数据']);
      await page.getByRole('button', { name: '折叠' }).click();
      await page.goto('/wel/index');
      await top.getByText('平台管理', { exact: true }).click();
      await expect.poll(underlined).toEqual(['平台管理']);
    });

    test('every platform screen, looked at', async ({ request }) => {
      test.setTimeout(240_000);
      const dir = `${SHOTS}/${size.name}`;
      mkdirSync(dir, { recursive: true });
      for (const path of await platformScreens(request)) {
        await go(page, path);
        // the page's code, its metadata and its rows have come
        await expect(page.locator('.bb-content').locator('.bb-spin:visible, .ant-spin-spinning:visible, .ant-skeleton:visible')).toHaveCount(0);
        await page.screenshot({ path: `${dir}/${path.replace(/^\//, '').replace(/[/?=&]/g, '_')}.png` });
        // no page is wider than the window
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    });

    test('in English the top menu and the user list fit', async () => {
      await setLanguage(page, 'en');
      try {
        await go(page, '/system/user');
        if (size.width >= 992) {
          // "Supply Chain" is not folded into the overflow "…"
          await expect(page.locator('.bb-top-menu').getByText('Supply Chain', { exact: true })).toBeVisible();
          await expect(page.locator('.bb-top-menu .ant-menu-overflow-item-rest:visible')).toHaveCount(0);
        }
        const table = userTable(page);
        await expect(table.locator('.ant-table-row').first()).toBeVisible();
        if (size.width >= 992) {
          for (const name of ['Roles', 'Department', 'Enabled']) {
            await expect(table.locator('.ant-table-thead th').filter({ hasText: name }).first()).toBeVisible();
          }
        }
        // the longer English labels still fit the table's width: nothing scrolls sideways
        const content = table.locator('.ant-table-content');
        expect(await content.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `${SHOTS}/${size.name}/en-user.png` });
      } finally {
        await setLanguage(page, 'zh');
      }
    });
  });
}
