/**
 * A console.warn or console.error during a test fails it: React's act() warnings, antd deprecations
 * and msw's unhandled requests all arrive here, and left alone they buried real failures in noise.
 * A test that provokes one on purpose says which with expectConsole().
 */
const expected: RegExp[] = [];
const unexpected: string[] = [];

/** Lets console messages matching a pattern through for the rest of the current test. */
export function expectConsole(...patterns: RegExp[]): void {
  expected.push(...patterns);
}

const show = (a: unknown) => (a instanceof Error ? (a.stack ?? a.message) : typeof a === 'string' ? a : String(a));

/** console's own formatting, enough to read and match a message: %s-style placeholders, then the rest. */
function format(args: unknown[]): string {
  const rest = [...args];
  let text = typeof rest[0] === 'string' ? (rest.shift() as string) : '';
  text = text.replace(/%[sdifoOc]/g, (p) => (rest.length ? (p === '%c' ? (rest.shift(), '') : show(rest.shift())) : p));
  return [text, ...rest.map(show)].filter(Boolean).join(' ');
}

export function trapConsole(): void {
  for (const level of ['warn', 'error'] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const text = format(args);
      if (expected.some((p) => p.test(text))) return;
      unexpected.push(`console.${level}: ${text}`);
      original(...args);
    };
  }
}

/** Ends the current test's console window; throws (failing the test) if anything unexpected was logged. */
export function checkConsole(): void {
  expected.length = 0;
  const seen = unexpected.splice(0);
  if (seen.length) {
    throw new Error(`${seen.length} unexpected console message(s) during the test:\n${seen.map((s) => s.split('\n').filter(Boolean).slice(0, 2).join(' ')).join('\n')}`);
  }
}
