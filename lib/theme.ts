/** The colour theme a visitor chose: remembered in a cookie, read by the root layout. */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "theme";
export const THEME_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The cookie's value as a theme; anything else (or nothing) follows the system. */
export function parseTheme(value: string | undefined): Theme {
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
}

/** The `document.cookie` assignment that remembers a choice for a year. */
export function themeCookie(theme: Theme, secure: boolean): string {
  return `${THEME_COOKIE}=${theme}; path=/; max-age=${THEME_COOKIE_MAX_AGE_S}; samesite=lax${secure ? "; secure" : ""}`;
}
