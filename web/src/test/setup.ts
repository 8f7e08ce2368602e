import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { server } from './server';
import { checkConsole, trapConsole } from './console';

trapConsole();

// antd in jsdom is slow on a loaded 2-core machine: at a load average of 20 (other builds and tests
// running), a lazily imported page took over 5 s to show. The queries still wait for the element;
// this is only how long before one that never comes fails the test.
configure({ asyncUtilTimeout: 20000 });

// antd needs these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class RO {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(globalThis as unknown as { ResizeObserver: typeof RO }).ResizeObserver ??= RO;

// jsdom implements no pseudo-elements and says so on the console for each call (antd measures
// ::-webkit-scrollbar); there is no layout to measure anyway, so answer the element's own style.
const origGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element) => origGetComputedStyle(elt);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  document.getElementById('bb-toasts')?.remove();
  // Last: it throws, and after cleanup, so that warnings from unmounting count against the test.
  checkConsole();
});
afterAll(() => {
  server.close();
  // Whatever was logged after the file's last test (a timer of an unmounted component) fails the file.
  checkConsole();
});
