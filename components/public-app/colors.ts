// Colour arithmetic for the public page: the builder picks any colours, and visitors must still
// be able to read every text (WCAG 2.2 contrast, 4.5:1 for text). Pure, so the editor's preview
// and the server render agree.

const HEX = /^#([0-9a-f]{6})$/i;

export type Rgb = [number, number, number];

/** "#RRGGBB" to [r, g, b] (0-255); anything else is null. */
export function parseHex(hex: string): Rgb | null {
  const m = HEX.exec(hex.trim());
  if (!m) return null;
  const n = Number.parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Relative luminance of WCAG 2.2. */
export function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const ca = parseHex(a);
  const cb = parseHex(b);
  if (!ca || !cb) return 1;
  const [hi, lo] = [luminance(ca), luminance(cb)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Whether black text would read better than white on `background`: the luminance where both
 * give the same contrast is about 0.179.
 */
export function isDarkColor(background: string): boolean {
  const c = parseHex(background);
  return c ? luminance(c) < 0.179 : false;
}

/**
 * The builder's text colour when it reads on the background (at least `min`:1), otherwise black
 * or white, whichever reads better: a white header on a white page is a slip, not a choice.
 */
export function readableOn(foreground: string, background: string, min = 4.5): string {
  if (contrastRatio(foreground, background) >= min) return foreground;
  return isDarkColor(background) ? "#FFFFFF" : "#000000";
}

/** The colours a style sets: a background, and texts on it and on the buttons. */
type StyleColors = {
  background: string;
  headerTextColor: string;
  subheaderTextColor: string;
  buttonTextColor: string;
  buttonBackgroundColor: string;
};

/** Each builder-chosen text colour and what it is read on (a button's text on the button). */
export const TEXT_COLOR_GROUNDS = {
  headerTextColor: "background",
  subheaderTextColor: "background",
  buttonTextColor: "buttonBackgroundColor",
} as const satisfies Record<string, keyof StyleColors>;
export type TextColorKey = keyof typeof TEXT_COLOR_GROUNDS;

/**
 * The text colours the public page really shows (readableOn each on its ground). The editor
 * compares them with the chosen ones to tell the builder of a colour that was replaced.
 */
export function shownTextColors(style: StyleColors): Record<TextColorKey, string> {
  const on = (key: TextColorKey) => readableOn(style[key], style[TEXT_COLOR_GROUNDS[key]]);
  return {
    headerTextColor: on("headerTextColor"),
    subheaderTextColor: on("subheaderTextColor"),
    buttonTextColor: on("buttonTextColor"),
  };
}

/** "#RRGGBB" with an alpha, as rgba(); the fallback when the colour does not parse. */
export function withAlpha(hex: string, alpha: number, fallback = "transparent"): string {
  const c = parseHex(hex);
  return c ? `rgba(${c[0]}, ${c[1]}, ${c[2]}, ${alpha})` : fallback;
}
