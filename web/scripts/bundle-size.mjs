// Gzip size of the JavaScript a browser loads for a route: the entry chunk, its static imports and the
// lazily loaded page chunk(s) named on the command line, each with its static imports.
// Usage: node scripts/bundle-size.mjs LoginPage
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, basename } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const assets = join(dist, 'assets');
const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/src="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
const pages = process.argv.slice(2);
const roots = [...entry, ...pages.map((p) => files.find((f) => f.startsWith(`${p}-`))).filter(Boolean)];

const seen = new Set();
const staticImports = (code) =>
  [...code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]);
const visit = (f) => {
  if (seen.has(f)) return;
  seen.add(f);
  const code = readFileSync(join(assets, f), 'utf8');
  staticImports(code).forEach(visit);
};
roots.forEach(visit);
let total = 0;
const rows = [...seen].map((f) => {
  const gz = gzipSync(readFileSync(join(assets, f))).length;
  total += gz;
  return [basename(f), gz];
});
rows.sort((a, b) => b[1] - a[1]).forEach(([f, gz]) => console.log(`${(gz / 1024).toFixed(1).padStart(8)} KB  ${f}`));
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  total gzip (${rows.length} chunks) for entry + ${pages.join(', ') || 'nothing'}`);
