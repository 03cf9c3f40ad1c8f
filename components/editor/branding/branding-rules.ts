import type { AppStyle, StyleName } from "@/lib/apps/schemas";
import { presetStyle } from "@/lib/apps/style-presets";

// Pure rules of the branding panel (no React), shared by the panel and its unit tests.

const HEX = /^#?([0-9a-fA-F]{6})$/;

/**
 * The colour typed in a hex box as the style stores it ("#RRGGBB", upper case), or null when it
 * is not six hex digits. The leading # may be left out (a pasted "7bdcb5" is fine).
 */
export function normalizeHex(input: string): string | null {
  const match = HEX.exec(input.trim());
  return match ? `#${match[1].toUpperCase()}` : null;
}

/** The colour keys of a style, in the order the panel shows them. */
export const COLOR_KEYS = [
  "background",
  "headerTextColor",
  "subheaderTextColor",
  "buttonTextColor",
  "buttonBackgroundColor",
] as const satisfies readonly (keyof AppStyle)[];
export type ColorKey = (typeof COLOR_KEYS)[number];

/**
 * What picking a preset changes: its colours and its name. Images and the watermark switch are
 * left alone, so the patch names only the keys the preset sets.
 */
export function presetPatch(name: StyleName): Partial<AppStyle> {
  const style = presetStyle(name);
  const patch: Partial<AppStyle> = { styleName: name };
  for (const key of COLOR_KEYS) patch[key] = style[key];
  return patch;
}

/**
 * The watermark as the public page will show it: `hideBuildAI` null means "not set", and then
 * the plan's default applies (paid plans hide it by default).
 */
export function watermarkState(hideBuildAI: boolean | null, defaultHidden: boolean) {
  return { hidden: hideBuildAI ?? defaultHidden, followsPlan: hideBuildAI === null };
}
