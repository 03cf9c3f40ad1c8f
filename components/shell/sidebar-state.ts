import { SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE_S } from "@/lib/constants";

// Shared by the server layout (reads the cookie to render the first paint in the remembered
// state, so the sidebar never flickers open then closed) and the client (writes it).

/**
 * Whether the sidebar starts expanded, from the cookie's value. Open unless the builder closed
 * it: a first visit, or a cookie from something else, shows the navigation.
 *
 * In a server layout: `isSidebarOpen((await cookies()).get(SIDEBAR_COOKIE)?.value)`.
 */
export function isSidebarOpen(cookieValue: string | undefined): boolean {
  return cookieValue !== "false";
}

/**
 * The `document.cookie` assignment that remembers the state for a week on every path; Secure
 * when the page is served over https (`secure`: `location.protocol === "https:"`).
 */
export function sidebarCookie(open: boolean, secure = false): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; samesite=lax${secure ? "; secure" : ""}`;
}

/** Ctrl+B, or Cmd+B on a Mac, toggles the sidebar (as shadcn's sidebar does, even while typing). */
export function isSidebarShortcut(
  event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">,
): boolean {
  // Case-insensitive so Caps Lock does not break it; Shift and Alt combinations stay the browser's.
  return (
    event.key.toLowerCase() === "b" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey
  );
}
