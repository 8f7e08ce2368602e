import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadLink } from './AttachPage';

describe('attachment download', () => {
  afterEach(() => vi.restoreAllMocks());

  it('follows the signed link with the original name, and does nothing without a link', () => {
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    downloadLink({ id: '1', link: '/api/blade-resource/oss/endpoint/file/t/2026/01/ab.txt?expires=1&sig=x&download=1', originalName: '报告.txt' });
    downloadLink({ id: '2', link: '', originalName: 'none' });
    expect(clicked).toEqual([{ href: '/api/blade-resource/oss/endpoint/file/t/2026/01/ab.txt?expires=1&sig=x&download=1', download: '报告.txt' }]);
    expect(document.querySelectorAll('a').length).toBe(0);
  });
});
