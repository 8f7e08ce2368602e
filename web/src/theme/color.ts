/** Colour helpers of the theme-colour picker (spec §9: 10 tints plus one darker at 10%). */

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

export function parseHex(color: string): [number, number, number] {
  const m = HEX.exec(color.trim());
  if (!m) throw new Error(`not a hex colour: ${color}`);
  let h = m[1];
  if (h.length === 3) h = h.split('').map((c) => c + c).join('');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

const toHex = (rgb: number[]): string =>
  `#${rgb.map((v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0')).join('')}`;

/** Mixes towards white by `tint` (0 = unchanged, 1 = white). */
export function tintColor(color: string, tint: number): string {
  return toHex(parseHex(color).map((c) => c + (255 - c) * tint));
}

/** Darkens by `shade` (0.1 = 10% darker). */
export function shadeColor(color: string, shade: number): string {
  return toHex(parseHex(color).map((c) => c * (1 - shade)));
}

/** The 11 shades: the colour and 9 lighter tints (0.0 … 0.9), then one 10% darker. */
export function themeCluster(color: string): string[] {
  const tints = Array.from({ length: 10 }, (_, i) => tintColor(color, i / 10));
  return [...tints, shadeColor(color, 0.1)];
}

/** Writes the cluster to CSS variables --bb-primary-0 … --bb-primary-9 and --bb-primary-dark. */
export function applyColorVars(color: string, root: HTMLElement = document.documentElement): void {
  const c = themeCluster(color);
  c.slice(0, 10).forEach((v, i) => root.style.setProperty(`--bb-primary-${i}`, v));
  root.style.setProperty('--bb-primary', c[0]);
  root.style.setProperty('--bb-primary-dark', c[10]);
}
