// Accounts at 1400×850 and at 800 px (issue #13): a registration waits for approval and then signs in,
// the user form checks its fields on blur (zh and en) with an avatar upload, read-only view dialogs and
// a role dialog that ticks the user's roles, a removed tenant's users leave 用户管理, and the SMS
// countdown survives a reload. Every test makes a tenant (or phone) of its own.
import { mkdirSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { apiLogin, login, confirm } from './helpers.js';

const SIZES = [
  { name: 'wide', width: 1400, height: 850 },
  { name: 'narrow', width: 800, height: 850 },
];
const SHOTS = process.env.BLUEBIRD_SHOTS || 'test-results/accounts-shots';
// a 1×1 png
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

// a name part unique to the run and the test
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

// newTenant makes a tenant as the super user; its admin signs in as admin / admin.
async function newTenant(request, name) {
  const admin = await apiLogin(request);
  const t = await admin.post('/api/blade-system/tenant/submit', { tenantName: name, linkman: 'e2e' });
  return { tenantId: t.tenantId, id: t.id, ta: await apiLogin(request, { tenant: t.tenantId }) };
}

// Registration is open while the platform parameter account.registerUser is true (seeded so); an
// administrator would turn it on in 参数管理, which is what this does if it is off.
async function registrationOpen(request) {
  const admin = await apiLogin(request);
  const page = await admin.get('/api/blade-system/param/list?paramKey=account.registerUser');
  const param = page.records.find((p) => p.paramKey === 'account.registerUser');
  expect(param, 'the account.registerUser parameter').toBeTruthy();
  if (param.paramValue !== 'true') await admin.post('/api/blade-system/param/submit', { ...param, paramValue: 'true' });
}

async function setLanguage(page, lng) {
  await page.evaluate((l) => localStorage.setItem('saber-language', JSON.stringify({ content: l, datetime: Date.now() })), lng);
  await page.reload();
  await expect(page.locator('.bb-shell')).toBeVisible();
}

const userPage = (page) => page.locator('.bb-page[data-page="/system/user"]').locator('.bb-resource');

// openUsers opens 用户管理 (a page load) and waits for its rows.
async function openUsers(page) {
  await page.goto('/system/user');
  await expect(userPage(page).locator('.ant-table-row').first()).toBeVisible();
  return userPage(page);
}

// the dialog on top
const topDialog = (page) => page.locator('.ant-modal-wrap:visible .ant-modal').last();

// the form item of a crud dialog's field (antd ids the control crud-<resource>_<field>)
// a field's message, less one leaving (antd keeps the old message while the new one fades in)
const ERROR = '.ant-form-item-explain-error:not(.ant-form-show-help-item-leave)';

const item = (dialog, name) => dialog.locator('.ant-form-item').filter({ has: dialog.page().locator(`[id="crud-user_${name}"]`) });

for (const size of SIZES) {
  test.describe(`${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    const shot = async (page, name) => {
      mkdirSync(`${SHOTS}/${size.name}`, { recursive: true });
      // a dialog's opening zoom is over
      await expect(page.locator('.ant-modal[class*="ant-zoom"]')).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/${size.name}/${name}.png` });
    };

    test('a registration waits for approval, then the account signs in', async ({ page, browser, request, baseURL }) => {
      const tag = uniq();
      const { tenantId, ta } = await newTenant(request, `Reg ${tag}`);
      await registrationOpen(request);
      // a registration gets the tenant's role of alias user (a new tenant has only its admin role, and an
      // account without a role cannot sign in)
      await ta.post('/api/blade-system/role/submit', { roleName: '用户', roleAlias: 'user', sort: 2, parentId: '0' });
      const account = `guest${tag}`;

      await page.goto('/login');
      await page.getByRole('link', { name: '注册账号' }).click();
      await expect(page).toHaveURL(/\/register$/);
      await page.getByLabel('租户编号').fill(tenantId);
      await page.getByLabel('用户姓名').fill('新同事');
      await page.getByLabel('账号名称').fill(account);
      await page.getByLabel('密码', { exact: true }).fill('guest123');
      await page.getByLabel('确认密码').fill('guest123');
      await shot(page, 'register-form');
      await page.getByRole('button', { name: /提\s*交/ }).click();
      // the page says the account waits for an administrator
      await expect(page.locator('.ant-result-title')).toHaveText('注册申请已提交,请耐心等待管理员通过!');
      await expect(page.getByText('管理员审核通过后即可使用该账号登录')).toBeVisible();
      await shot(page, 'register-pending');

      // until approved it cannot sign in, and is told why
      await page.getByRole('button', { name: /返回登录/ }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.getByPlaceholder('请输入租户ID').fill(tenantId);
      await page.getByPlaceholder('请输入账号').fill(account);
      await page.getByPlaceholder('请输入密码').fill('guest123');
      await page.locator('form[name=login] button[type=submit]').click();
      await expect(page.getByText('账号正在等待管理员审核')).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);

      // the tenant's administrator finds it among the pending registrations and approves it
      const adminContext = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, locale: 'zh-CN' });
      try {
        const admin = await adminContext.newPage();
        await login(admin, { tenant: tenantId });
        const table = await openUsers(admin);
        await table.getByRole('checkbox', { name: '只看待审核' }).check();
        const row = table.locator('.ant-table-row', { hasText: account });
        await expect(row).toHaveCount(1);
        await expect(table.locator('.ant-table-row')).toHaveCount(1);
        await expect(row.locator('.ant-tag')).toHaveText('待审核');
        await shot(admin, 'users-pending');
        await row.locator('input[type=checkbox]').check();
        await table.getByRole('button', { name: '审核通过' }).click();
        const confirm = admin.locator('.ant-modal-confirm');
        await expect(confirm.getByText('确定通过选择的注册申请?')).toBeVisible();
        await confirm.getByRole('button', { name: /确\s*定|OK/ }).click();
        await expect(admin.getByText('已审核通过')).toBeVisible();
        await expect(table.locator('.ant-table-row', { hasText: account })).toHaveCount(0);
        await table.getByRole('checkbox', { name: '只看待审核' }).uncheck();
        const approved = table.locator('.ant-table-row', { hasText: account });
        await expect(approved.getByRole('switch')).toBeChecked();
        await expect(approved).toContainText('用户');
      } finally {
        await adminContext.close();
      }

      // now it signs in
      await login(page, { tenant: tenantId, account, password: 'guest123' });
    });

    for (const lang of ['zh', 'en']) {
      test(`the user form checks its fields on blur (${lang}); avatar upload, read-only view, role dialog`, async ({ page, request }) => {
        const zh = lang === 'zh';
        const tag = uniq();
        const { tenantId, ta } = await newTenant(request, `Form ${tag}`);
        // a user holding the tenant's admin role and a second role
        const clerk = await ta.post('/api/blade-system/role/submit', { roleName: `店员${tag}`, roleAlias: `clerk${tag}`, sort: 3, parentId: '0' });
        const account = `holder${tag}`;
        await ta.post('/api/blade-user/submit', {
          account, name: '双角色', realName: '双角色', password: 'holder123', roleId: `${ta.body.role_id},${clerk.id}`, deptId: ta.body.dept_id,
        });

        await login(page, { tenant: tenantId });
        if (!zh) await setLanguage(page, 'en');
        const table = await openUsers(page);

        // 新增: each field's message under it as the cursor leaves the field, before any save
        await table.getByRole('button', { name: zh ? /新\s*增/ : 'Add' }).click();
        const dialog = topDialog(page);
        await expect(item(dialog, 'phone')).toBeVisible();
        const blurWith = async (name, value) => {
          const input = item(dialog, name).locator('input').first();
          await input.fill(value);
          await input.blur();
        };
        const expectUnder = async (name, message) => {
          const error = item(dialog, name).locator(ERROR);
          await expect(error).toHaveText(message);
          const input = await item(dialog, name).locator('input').first().boundingBox();
          const box = await error.boundingBox();
          expect(box.y, `${name}: the message is under the field`).toBeGreaterThanOrEqual(input.y + input.height - 1);
        };
        await blurWith('phone', '123');
        await blurWith('email', 'not-an-email');
        await blurWith('password', 'secret1');
        await blurWith('password2', 'secret2');
        await expectUnder('phone', zh ? '手机号码长度不为11位' : 'Phone must be 11 digits long');
        await expectUnder('email', zh ? '电子邮箱格式不正确' : 'Email is not a valid e-mail address');
        await expectUnder('password2', zh ? '两次密码输入不一致' : 'The two passwords do not match');
        // a phone of 11 digits not starting with 1 breaks the second rule; a good one clears the message
        await blurWith('phone', '23800000000');
        await expectUnder('phone', zh ? '手机号码格式不正确' : 'Phone is not a valid mobile number');
        await blurWith('phone', '13800000000');
        await expect(item(dialog, 'phone').locator(ERROR)).toHaveCount(0);
        // nothing was saved: no toast
        await expect(page.locator('.ant-message-notice')).toHaveCount(0);
        // the avatar is an upload, not a text box
        const avatar = item(dialog, 'avatar');
        await expect(avatar.getByRole('button', { name: zh ? '上传图片' : 'Upload image' })).toBeVisible();
        await expect(avatar.locator('input[type=file]')).toHaveCount(1);
        await expect(avatar.locator('input:not([type=file])')).toHaveCount(0);
        await shot(page, `user-add-${lang}`);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();

        // 查看: read-only fields ask for nothing (no 请输入… / 请选择…)
        const row = table.locator('.ant-table-row', { hasText: account });
        await row.getByRole('button', { name: zh ? '查看' : 'View', exact: true }).click();
        const view = topDialog(page);
        await expect(item(view, 'account').locator('input')).toHaveValue(account);
        await expect(item(view, 'email').locator('input')).toHaveValue('');
        const asks = await view.evaluate((d) => [
          ...[...d.querySelectorAll('[placeholder]')].map((e) => e.getAttribute('placeholder')),
          ...[...d.querySelectorAll('.ant-select-placeholder, .ant-select-selection-placeholder')].map((e) => e.textContent),
        ].filter(Boolean));
        expect(asks).toEqual([]);
        // roles shown by name, the avatar an upload (disabled)
        await expect(item(view, 'roleId')).toContainText(`店员${tag}`);
        await expect(item(view, 'avatar').locator('input:not([type=file])')).toHaveCount(0);
        await shot(page, `user-view-${lang}`);
        await page.keyboard.press('Escape');
        await expect(view).toBeHidden();

        // 角色配置 opens with the user's two roles ticked
        await row.locator('input[type=checkbox]').check();
        await table.getByRole('button', { name: zh ? '角色配置' : 'Roles' }).click();
        const roles = topDialog(page);
        const ticked = roles.locator('.ant-tree-treenode-checkbox-checked .ant-tree-title');
        await expect(ticked).toHaveCount(2);
        await expect(ticked.filter({ hasText: `店员${tag}` })).toHaveCount(1);
        await shot(page, `user-roles-${lang}`);
        await page.keyboard.press('Escape');
        await expect(roles).toBeHidden();
      });
    }

    test("removing a tenant removes its users from 用户管理", async ({ page, request }) => {
      const tag = uniq();
      const tenantName = `Gone ${tag}`;
      const { ta } = await newTenant(request, tenantName);
      // the tenant's admin, named so that the super user's list can find it among every tenant's admins
      const realName = `G${tag}`.slice(0, 10);
      const me = await ta.get(`/api/blade-user/detail?id=${ta.body.user_id}`);
      await ta.post('/api/blade-user/submit', { ...me, realName });

      await login(page);
      const table = await openUsers(page);
      const search = async () => {
        await table.getByPlaceholder('请输入用户姓名').fill(realName);
        await table.getByRole('button', { name: /搜\s*索/ }).click();
      };
      await search();
      const row = table.locator('.ant-table-row', { hasText: realName });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('admin');
      // the super user sees this user of another tenant with that tenant's role and department, by name
      await row.getByRole('button', { name: '查看', exact: true }).click();
      const view = topDialog(page);
      await expect(item(view, 'roleId')).toContainText('管理员');
      await expect(item(view, 'deptId')).toContainText(tenantName);
      await page.keyboard.press('Escape');
      await expect(view).toBeHidden();
      // and 角色配置 offers that tenant's roles (its admin role only; the platform's are three), its own ticked
      await row.locator('input[type=checkbox]').check();
      await table.getByRole('button', { name: '角色配置' }).click();
      const roles = topDialog(page);
      await expect(roles.locator('.ant-tree-title')).toHaveText(['管理员']);
      await expect(roles.locator('.ant-tree-treenode-checkbox-checked .ant-tree-title')).toHaveText(['管理员']);
      await shot(page, 'super-user-roles-of-another-tenant');
      await page.keyboard.press('Escape');
      await expect(roles).toBeHidden();

      // 租户管理: remove the tenant
      await page.goto('/system/tenant');
      const tenants = page.locator('.bb-page[data-page="/system/tenant"]').locator('.bb-resource');
      const tenantRow = tenants.locator('.ant-table-row', { hasText: tenantName });
      await expect(tenantRow).toHaveCount(1);
      await tenantRow.getByRole('button', { name: '删除', exact: true }).click();
      await confirm(page);
      await expect(page.getByText('删除成功')).toBeVisible();
      await expect(tenantRow).toHaveCount(0);

      // its admin is gone from 用户管理, not left with a blank tenant
      await openUsers(page);
      await search();
      await expect(table.locator('.ant-table-row', { hasText: realName })).toHaveCount(0);
      await expect(table.locator('.ant-empty')).toBeVisible();
      await shot(page, 'users-after-tenant-removal');
    });

    test('a new avatar uploaded on /info/index shows in the header once saved', async ({ page, request }) => {
      const { tenantId } = await newTenant(request, `Avatar ${uniq()}`);
      await login(page, { tenant: tenantId });
      const header = page.locator('.bb-user .ant-avatar img');
      const before = await header.getAttribute('src');
      await page.goto('/info/index');
      const field = page.locator('#info_avatar');
      await expect(field.getByRole('button', { name: '上传头像' })).toBeVisible();
      await expect(field.getByText('只能上传 jpg/png 文件,且不超过 500kb')).toBeVisible();
      // a gif is refused before it is sent (the file picker would not offer it; a drop or a script could)
      await field.locator('input[type=file]').setInputFiles({ name: 'me.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
      await expect(page.getByText('头像只能是 JPG/PNG 格式!')).toBeVisible();
      await field.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
      const preview = field.locator('.ant-avatar img');
      await expect(preview).toHaveAttribute('src', /\/api\/blade-resource\/oss\/endpoint\//);
      const link = await preview.getAttribute('src');
      // not in the header before it is saved
      await expect(header).toHaveAttribute('src', before);
      await page.getByLabel('手机号').fill('13800000000');
      await page.getByRole('button', { name: /保\s*存/ }).first().click();
      await expect(header).toHaveAttribute('src', link);
      await shot(page, 'info-avatar-saved');
    });

    test('the SMS code countdown survives a reload', async ({ page, browser, baseURL }) => {
      // a phone of no user: the server answers as if it sent a code, and throttles it all the same
      const phone = `139${String(Date.now() % 1e8).padStart(8, '0')}`;
      await page.goto('/login');
      await page.getByRole('tab', { name: '手机号登录' }).click();
      await page.getByPlaceholder('请输入手机号码').fill(phone);
      const send = page.locator('.login-sms');
      await send.click();
      await expect(send).toHaveText(/^\d+秒后重发$/);
      await expect(send).toBeDisabled();
      const before = Number((await send.textContent()).replace(/\D/g, ''));
      await page.reload();
      // back on the phone tab, the phone filled in, still counting down from where it was
      await expect(page.getByRole('tab', { name: '手机号登录' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByPlaceholder('请输入手机号码')).toHaveValue(phone);
      await expect(send).toBeDisabled();
      const after = Number((await send.textContent()).replace(/\D/g, ''));
      expect(after).toBeGreaterThan(0);
      expect(after).toBeLessThanOrEqual(before);
      await shot(page, 'login-sms-after-reload');

      // another browser (no countdown of its own) asking for the same phone: the server's 429, its
      // message shown, and the button left as it was (the server names no wait)
      const other = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, locale: 'zh-CN' });
      try {
        const p2 = await other.newPage();
        await p2.goto('/login');
        await p2.getByRole('tab', { name: '手机号登录' }).click();
        await p2.getByPlaceholder('请输入手机号码').fill(phone);
        await p2.locator('.login-sms').click();
        await expect(p2.getByText('短信验证码发送过于频繁,请稍后再试')).toBeVisible();
        await expect(p2.locator('.login-sms')).toHaveText('获取验证码');
      } finally {
        await other.close();
      }
    });
  });
}
