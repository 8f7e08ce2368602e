// The process designer end to end (issue #10): draw a two-step approval in /flow/model (the user tasks made
// through the bpmn-js modeling API in the page, their candidates and assignee set in our own panel), save it
// (the server's parser accepts it), deploy it with a category and see it in /flow/manager with its diagram.
import { test, expect } from '@playwright/test';
import { login } from './helpers.js';

test('draws a two-step process, deploys it and sees it among the definitions', async ({ page }) => {
  await login(page);
  await page.goto('/flow/model');
  await page.getByRole('button', { name: '新建模型' }).click();
  const designer = page.getByRole('dialog', { name: '流程设计' });
  await expect(designer.locator('.djs-palette')).toBeVisible();
  // the bpmn.io watermark stays
  await expect(designer.locator('.bjs-powered-by')).toBeVisible();
  await designer.getByLabel('模型标识').fill('e2e_two_step');
  await designer.getByLabel('模型名称').fill('两步审批');

  // start -> first approval -> second approval -> end, appended as the palette and context pad would
  const ids = await page.evaluate(() => {
    const m = window.bbModeler;
    const ef = m.get('elementFactory');
    const modeling = m.get('modeling');
    const reg = m.get('elementRegistry');
    const start = reg.filter((e) => e.type === 'bpmn:StartEvent')[0];
    const t1 = modeling.appendShape(start, ef.createShape({ type: 'bpmn:UserTask' }), { x: start.x + 200, y: start.y + 18 });
    const t2 = modeling.appendShape(t1, ef.createShape({ type: 'bpmn:UserTask' }), { x: t1.x + 220, y: t1.y + 40 });
    modeling.appendShape(t2, ef.createShape({ type: 'bpmn:EndEvent' }), { x: t2.x + 200, y: t2.y + 40 });
    return [t1.id, t2.id];
  });
  const panel = designer.getByTestId('flow-panel');

  // first step: any admin (candidate group: the admin role)
  await designer.locator(`.djs-element[data-element-id="${ids[0]}"]`).click();
  await expect(panel.getByText('属性 · UserTask')).toBeVisible();
  await panel.getByLabel('名称').fill('主管审批');
  await panel.getByLabel('候选组(角色)').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '(admin)' }).first().click();
  // second step: back to whoever started it
  await designer.locator(`.djs-element[data-element-id="${ids[1]}"]`).click();
  await panel.getByLabel('名称').fill('发起人确认');
  await panel.getByRole('button', { name: '${initiator}' }).click();
  await expect(panel.getByLabel('处理人表达式')).toHaveValue('${initiator}');

  await designer.getByRole('button', { name: '保 存' }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await designer.getByRole('button', { name: '返 回' }).click();

  // (pages stay mounted in their tabs: each list is looked for in its own page)
  const row = page.locator('[data-page="/flow/model"] .bb-flow-list tr', { hasText: 'e2e_two_step' });
  await row.getByRole('button', { name: '部署' }).click();
  const deploy = page.getByRole('dialog', { name: '部署模型「两步审批」' });
  await deploy.getByLabel('流程分类').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '单据审批' }).click();
  await deploy.getByRole('button', { name: '部 署' }).click();
  await expect(deploy).toBeHidden();

  await page.goto('/flow/manager');
  const def = page.locator('[data-page="/flow/manager"] .bb-flow-list tr', { hasText: 'e2e_two_step' });
  await expect(def).toContainText('两步审批');
  await def.getByRole('button', { name: '流程图' }).click();
  const viewer = page.getByRole('dialog').locator('.djs-container');
  await expect(viewer.getByText('主管审批')).toBeVisible();
  await expect(viewer.getByText('发起人确认')).toBeVisible();
});
