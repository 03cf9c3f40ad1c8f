import type { AppStyle, StyleName } from "./schemas";

// "Style presets: dark (black background, white text); colorful (green background 7BDCB5, black
// text); light (white background, black text)." Picking a preset sets these
// colours; the builder may change each one afterwards.
const PRESETS: Record<StyleName, Omit<AppStyle, "backgroundImage" | "logoUrl" | "hideBuildAI">> = {
  dark: {
    styleName: "dark",
    background: "#000000",
    headerTextColor: "#FFFFFF",
    subheaderTextColor: "#FFFFFF",
    buttonTextColor: "#000000",
    buttonBackgroundColor: "#FFFFFF",
  },
  colorful: {
    styleName: "colorful",
    background: "#7BDCB5",
    headerTextColor: "#000000",
    subheaderTextColor: "#000000",
    buttonTextColor: "#FFFFFF",
    buttonBackgroundColor: "#000000",
  },
  light: {
    styleName: "light",
    background: "#FFFFFF",
    headerTextColor: "#000000",
    subheaderTextColor: "#000000",
    buttonTextColor: "#FFFFFF",
    buttonBackgroundColor: "#000000",
  },
};

/** A preset's colours, keeping the images and the watermark switch of `current`. */
export function presetStyle(name: StyleName, current?: Partial<AppStyle>): AppStyle {
  return {
    backgroundImage: current?.backgroundImage ?? null,
    logoUrl: current?.logoUrl ?? null,
    hideBuildAI: current?.hideBuildAI ?? null,
    ...PRESETS[name],
  };
}
