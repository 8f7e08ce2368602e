// Approval of a business document end to end (issue #10): in a fresh tenant, its administrator draws a
// two-step approval in the designer (/flow/model), deploys it, binds the material type to it from
// /flow/manager and submits two materials for approval. A first approver claims and approves the first step
// of both; a second approver approves the second step of one and rejects the other with a comment. The
// materials end approved and rejected, and the rejected one's progress shows the comment and the highlighted
// diagram. Setup (the tenant, the approver role with the 我的事务 menus, two approvers, the materials) goes
// through the API; every step a user takes goes through the browser.
import { test, expect } from '@playwright/test';
import { login, openMenu } from './helpers.js';
import { newTenant, uniqueTag } from './masterdata-support.js';

// subtree ids of the grant-tree node titled title, with its ancestors (a leaf's group must be granted too).
function grantIds(nodes, title, path = []) {
  for (const n of nodes) {
    if (n.title === title) {
      const ids = [...path, n.id];
      const walk = (x) => (x.children ?? []).forEach((c) => (ids.push(c.id), walk(c)));
      walk(n);
      return ids;
    }
    const found = grantIds(n.children ?? [], title, [...path, n.id]);
    if (found) return found;
  }
  return null;
}

test('a drawn two-step approval: bound to materials, submitted, claimed and approved, another rejected', async ({ page, browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const key = `mat${tag.toLowerCase()}`;
  const { tenantId, api } = await newTenant(request, `审批 ${tag}`);
  const role = await api.post('/api/blade-system/role/submit', { roleName: '审批员', roleAlias: 'approver', sort: 5, parentId: '0' });
  const tree = await api.get('/api/blade-system/menu/grant-tree');
  const menuIds = [...grantIds(tree.menu, '我的事务'), ...grantIds(tree.menu, '物料管理')];
  await api.post('/api/blade-system/role/grant', { roleIds: [role.id], menuIds });
  for (const account of ['appr1', 'appr2']) {
    await api.post('/api/blade-user/submit', {
      account, name: account, realName: account === 'appr1' ? '审批甲' : '审批乙', password: 'appr12345', roleId: role.id, deptId: api.body.dept_id,
    });
  }
  const m1 = await api.post('/api/bluebird-basic/material/submit', { materialCode: `A${tag}`, materialName: `待批物料${tag}`, unit: 'pcs' });
  const m2 = await api.post('/api/bluebird-basic/material/submit', { materialCode: `B${tag}`, materialName: `驳回物料${tag}`, unit: 'pcs' });

  // the tenant administrator draws the process: start -> 初审 -> 复审 -> end, both steps for the approver role
  await login(page, { tenant: tenantId });
  await page.goto('/flow/model');
  await page.getByRole('button', { name: '新建模型' }).click();
  const designer = page.getByRole('dialog', { name: '流程设计' });
  await expect(designer.locator('.djs-palette')).toBeVisible();
  await designer.getByLabel('模型标识').fill(key);
  await designer.getByLabel('模型名称').fill(`物料审批${key}`);
  const steps = await page.evaluate(() => {
    const m = window.bbModeler;
    const ef = m.get('elementFactory');
    const modeling = m.get('modeling');
    const start = m.get('elementRegistry').filter((e) => e.type === 'bpmn:StartEvent')[0];
    const t1 = modeling.appendShape(start, ef.createShape({ type: 'bpmn:UserTask' }), { x: start.x + 200, y: start.y + 18 });
    const t2 = modeling.appendShape(t1, ef.createShape({ type: 'bpmn:UserTask' }), { x: t1.x + 220, y: t1.y + 40 });
    modeling.appendShape(t2, ef.createShape({ type: 'bpmn:EndEvent' }), { x: t2.x + 200, y: t2.y + 40 });
    return [t1.id, t2.id];
  });
  const panel = designer.getByTestId('flow-panel');
  for (const [id, name] of [[steps[0], '初审'], [steps[1], '复审']]) {
    await designer.locator(`.djs-element[data-element-id="${id}"]`).click();
    await expect(panel.getByText('属性 · UserTask')).toBeVisible();
    await panel.getByLabel('名称').fill(name);
    await panel.getByLabel('候选组(角色)').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '(approver)' }).click();
    await page.keyboard.press('Escape'); // the multiple select stays open after a choice
  }
  await designer.getByRole('button', { name: '保 存' }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await designer.getByRole('button', { name: '返 回' }).click();
  const model = page.locator('[data-page="/flow/model"] .bb-flow-list tr', { hasText: key });
  await model.getByRole('button', { name: '部署' }).click();
  const deploy = page.getByRole('dialog', { name: `部署模型「物料审批${key}」` });
  await deploy.getByLabel('流程分类').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '单据审批' }).click();
  await deploy.getByRole('button', { name: '部 署' }).click();
  await expect(deploy).toBeHidden();

  // binds materials to the process
  await page.goto('/flow/manager'); // group and leaf are both 流程管理
  const def = page.locator('[data-page="/flow/manager"] .bb-flow-list tr', { hasText: key });
  await def.getByRole('button', { name: '绑定单据' }).click();
  const bind = page.getByRole('dialog', { name: /绑定单据/ });
  await bind.getByRole('checkbox', { name: '物料', exact: true }).check();
  await bind.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('单据绑定已保存')).toBeVisible();
  await expect(bind).toBeHidden();

  // and submits both materials for approval from the material list
  await openMenu(page, '基础资料', '物料管理');
  const list = page.locator('[data-page="/basic/material"]');
  for (const m of [m1, m2]) {
    await list.locator('tr', { hasText: m.materialCode }).getByRole('checkbox').check();
  }
  await list.getByRole('button', { name: /提交审批/ }).first().click();
  const confirm = page.locator('.ant-modal-confirm');
  if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('已提交审批')).toBeVisible();

  // handle claims a material's open step on the claim list and approves it, or rejects it with a comment
  const handle = async (p, material, comment, reject = false) => {
    await openMenu(p, '我的事务', '待签事务');
    const row = p.locator('[data-page="/work/claim"] .bb-flow-list tr', { hasText: material.materialName });
    await row.getByRole('button', { name: '签收' }).click();
    await expect(p.getByText(/签收成功|操作成功/).last()).toBeVisible();
    await openMenu(p, '我的事务', '待办事务');
    await p.locator('[data-page="/work/todo"] .bb-flow-list tr', { hasText: material.materialName }).getByRole('button', { name: '办理' }).click();
    const task = p.getByRole('dialog');
    await expect(task.getByText(material.materialCode)).toBeVisible(); // the document, read-only
    if (reject) {
      await task.getByRole('button', { name: /驳\s*回/ }).click();
      await expect(p.getByText('驳回时请填写审批意见')).toBeVisible();
    }
    await task.getByLabel('审批意见').fill(comment);
    await task.getByRole('button', { name: reject ? /驳\s*回/ : /同\s*意/ }).click();
    await expect(task).toBeHidden();
  };
  const approver = async (account) => {
    const ctx = await browser.newContext({ baseURL });
    const p = await ctx.newPage();
    await login(p, { tenant: tenantId, account, password: 'appr12345' });
    return { ctx, p };
  };

  // the first approver sees both materials' first step to claim, and approves both
  const first = await approver('appr1');
  await openMenu(first.p, '我的事务', '待签事务');
  await expect(first.p.locator('[data-page="/work/claim"] .bb-flow-list tbody tr.ant-table-row')).toHaveCount(2);
  await handle(first.p, m1, '规格齐全, 同意');
  await handle(first.p, m2, '初审通过');
  await first.ctx.close();

  // the second approver handles the second step: approves one, rejects the other (a comment required)
  const second = await approver('appr2');
  await openMenu(second.p, '我的事务', '待签事务');
  const claimable = second.p.locator('[data-page="/work/claim"] .bb-flow-list tbody tr.ant-table-row');
  await expect(claimable).toHaveCount(2);
  await expect(claimable.first()).toContainText('复审');
  await handle(second.p, m1, '复审同意');
  await handle(second.p, m2, '缺少规格型号', true);
  await second.ctx.close();

  // back in the material list: one approved, one rejected, the rejection's progress with its comment and diagram
  await list.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(list.locator('tr', { hasText: m1.materialCode })).toContainText('已审批');
  const rejected = list.locator('tr', { hasText: m2.materialCode });
  await expect(rejected).toContainText('已驳回');
  await rejected.getByRole('button', { name: '审批进度' }).click();
  const progress = page.getByRole('dialog', { name: '审批进度' });
  await expect(progress.getByText('缺少规格型号')).toBeVisible();
  await expect(progress.getByText('初审通过')).toBeVisible(); // the first step's approval is in the history
  await progress.getByRole('tab', { name: '流程图' }).click();
  // the rejected task is marked red on the diagram (a canvas marker on its element)
  await expect(progress.locator(`.djs-element.bb-flow-rejected[data-element-id="${steps[1]}"]`)).toBeVisible();
});
