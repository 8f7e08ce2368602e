// Object storage end to end (issue #12): an S3 configuration made in /resource/oss points at an S3 server
// the test runs (s3fake.js, the real protocol as minio-go speaks it), is enabled, and a file uploaded from
// /resource/attach lands in its bucket, is listed with its type and size, and downloads through its link.
import { test, expect } from '@playwright/test';
import { apiLogin, login, confirm } from './helpers.js';
import { pick } from './masterdata-support.js';
import { startS3 } from './s3fake.js';

// shot saves a screenshot under BLUEBIRD_SHOTS when it is set.
async function shot(page, name) {
  if (process.env.BLUEBIRD_SHOTS) await page.screenshot({ path: `${process.env.BLUEBIRD_SHOTS}/${name}.png` });
}

test('uploads a file through an enabled S3 configuration and downloads it from the attachments', async ({ page, request }) => {
  const s3 = await startS3('e2e-files', 'AKE2E');
  try {
    await login(page);
    await page.goto('/resource/oss');
    const content = page.locator('[data-page="/resource/oss"]');
    await content.getByRole('button', { name: /新\s*增/ }).first().click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '资源编号' });
    await dialog.getByPlaceholder('请输入资源编号').fill('e2e-s3');
    await pick(page, dialog.getByLabel('分类', { exact: true }), 'MinIO/S3兼容');
    await dialog.getByPlaceholder('请输入资源地址').fill(s3.url);
    await dialog.getByPlaceholder('请输入空间名').fill('e2e-files');
    await dialog.getByPlaceholder('请输入accessKey').fill('AKE2E');
    await dialog.getByLabel('secretKey').fill('e2e-secret');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('新增成功')).toBeVisible();
    const row = content.locator('tr', { hasText: 'e2e-s3' });
    await row.getByText('启用').click();
    await confirm(page);
    await expect(page.getByText('启用成功')).toBeVisible();
    await expect(row).toContainText('是');
    await shot(page, 'resource-oss');

    await page.goto('/resource/attach');
    const attach = page.locator('[data-page="/resource/attach"]');
    const chooser = page.waitForEvent('filechooser');
    await attach.getByRole('button', { name: '上传文件' }).click();
    await (await chooser).setFiles({ name: 'e2e-report.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded through S3\n') });
    await expect(page.getByText('上传成功')).toBeVisible();
    const file = attach.locator('tr', { hasText: 'e2e-report.txt' });
    await expect(file).toContainText('txt');
    expect([...s3.objects.keys()].some((k) => k.endsWith('.txt')), 'the object is in the bucket').toBe(true);
    expect(s3.requests.some((r) => r.startsWith('PUT /e2e-files/'))).toBe(true);
    await shot(page, 'resource-attach');

    const download = page.waitForEvent('download');
    await file.getByText('下载').click();
    const saved = await (await download).path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(saved, 'utf8')).toBe('uploaded through S3\n');
  } finally {
    // the platform tenant's uploads go back to the console's disk: the specs after this one upload
    // (website covers) while the fake S3 server is gone
    const api = await apiLogin(request);
    const made = await api.get('/api/blade-resource/oss/list?ossCode=e2e-s3');
    for (const row of made?.records ?? []) await api.post(`/api/blade-resource/oss/remove?ids=${row.id}`);
    await s3.close();
  }
});
