// Approval of a business document end to end (issue #10): in a fresh tenant, its administrator binds the
// material type to a deployed process from /flow/manager and submits two materials for approval; one
// approver claims the first and approves it, a second approver handles the other and rejects it with a
// comment; the materials end approved and rejected, and the rejected one's progress shows the comment and
// the highlighted diagram. Setup (the tenant, the approver role with the 我的事务 menus, two approvers, the
// deployed process, the materials) goes through the API; every step a user takes goes through the browser.
import { test, expect } from '@playwright/test';
import { apiLogin, login, openMenu } from './helpers.js';
import { newTenant, uniqueTag } from './masterdata-support.js';

const PROCESS = (key) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" name="物料审批${key}" isExecutable="true">
    <bpmn:startEvent id="start" name="提交" />
    <bpmn:userTask id="check" name="审批员审批" camunda:candidateGroups="approver" />
    <bpmn:endEvent id="end" name="结束" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="check" />
    <bpmn:sequenceFlow id="f2" sourceRef="check" targetRef="end" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="dia"><bpmndi:BPMNPlane id="plane" bpmnElement="${key}">
    <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="check_di" bpmnElement="check"><dc:Bounds x="200" y="78" width="100" height="80" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="360" y="100" width="36" height="36" /></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="118" /><di:waypoint x="200" y="118" /></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="300" y="118" /><di:waypoint x="360" y="118" /></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;

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

test('a material goes through approval: bound, submitted, claimed and approved, another rejected', async ({ page, browser, request, baseURL }) => {
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
  const res = await request.post('/api/blade-flow/manager/deploy-upload', {
    headers: { Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0', 'Blade-Auth': `bearer ${api.body.access_token}` },
    multipart: { files: { name: `${key}.bpmn`, mimeType: 'text/xml', buffer: Buffer.from(PROCESS(key)) }, category: '3', tenantIds: tenantId },
  });
  expect((await res.json()).success).toBe(true);
  const m1 = await api.post('/api/bluebird-basic/material/submit', { materialCode: `A${tag}`, materialName: `待批物料${tag}`, unit: 'pcs' });
  const m2 = await api.post('/api/bluebird-basic/material/submit', { materialCode: `B${tag}`, materialName: `驳回物料${tag}`, unit: 'pcs' });

  // the tenant administrator binds materials to the process
  await login(page, { tenant: tenantId });
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

  // the first approver claims the first material and approves it
  const ctx1 = await browser.newContext({ baseURL });
  const p1 = await ctx1.newPage();
  await login(p1, { tenant: tenantId, account: 'appr1', password: 'appr12345' });
  await openMenu(p1, '我的事务', '待签事务');
  const claimRow = p1.locator('[data-page="/work/claim"] .bb-flow-list tr', { hasText: m1.materialName });
  await expect(p1.locator('[data-page="/work/claim"] .bb-flow-list tbody tr.ant-table-row')).toHaveCount(2);
  await claimRow.getByRole('button', { name: '签收' }).click();
  await expect(p1.getByText(/签收成功|操作成功/)).toBeVisible();
  await openMenu(p1, '我的事务', '待办事务');
  const todoRow = p1.locator('[data-page="/work/todo"] .bb-flow-list tr', { hasText: m1.materialName });
  await todoRow.getByRole('button', { name: '办理' }).click();
  const task = p1.getByRole('dialog');
  await expect(task.getByText(m1.materialCode)).toBeVisible(); // the document, read-only
  await task.getByLabel('审批意见').fill('规格齐全, 同意');
  await task.getByRole('button', { name: /同\s*意/ }).click();
  await expect(task).toBeHidden();
  await ctx1.close();

  // the second approver claims the other one and rejects it, a comment required
  const ctx2 = await browser.newContext({ baseURL });
  const p2 = await ctx2.newPage();
  await login(p2, { tenant: tenantId, account: 'appr2', password: 'appr12345' });
  await openMenu(p2, '我的事务', '待签事务');
  const rows2 = p2.locator('[data-page="/work/claim"] .bb-flow-list tbody tr.ant-table-row');
  await expect(rows2).toHaveCount(1); // the first was claimed, approved and is gone
  await rows2.first().getByRole('button', { name: '签收' }).click();
  await expect(p2.getByText(/签收成功|操作成功/)).toBeVisible();
  await openMenu(p2, '我的事务', '待办事务');
  await p2.locator('[data-page="/work/todo"] .bb-flow-list tr', { hasText: m2.materialName }).getByRole('button', { name: '办理' }).click();
  const task2 = p2.getByRole('dialog');
  await task2.getByRole('button', { name: /驳\s*回/ }).click();
  await expect(p2.getByText('驳回时请填写审批意见')).toBeVisible();
  await task2.getByLabel('审批意见').fill('缺少规格型号');
  await task2.getByRole('button', { name: /驳\s*回/ }).click();
  await expect(task2).toBeHidden();
  await ctx2.close();

  // back in the material list: one approved, one rejected, the rejection's progress with its comment and diagram
  await list.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(list.locator('tr', { hasText: m1.materialCode })).toContainText('已审批');
  const rejected = list.locator('tr', { hasText: m2.materialCode });
  await expect(rejected).toContainText('已驳回');
  await rejected.getByRole('button', { name: '审批进度' }).click();
  const progress = page.getByRole('dialog', { name: '审批进度' });
  await expect(progress.getByText('缺少规格型号')).toBeVisible();
  await progress.getByRole('tab', { name: '流程图' }).click();
  // the rejected task is marked red on the diagram (a canvas marker on its element)
  await expect(progress.locator('.djs-element.bb-flow-rejected[data-element-id="check"]')).toBeVisible();
});
