import { MAIN_PAGE } from "@/lib/constants";

/**
 * A redirect target is accepted only when it stays on our origin. Returns a path
 * (with query and hash), or the fallback for anything else: `//evil.com`, `/\evil.com`,
 * `javascript:`, other hosts, control characters.
 */
export function safeRedirectPath(
  target: string | null | undefined,
  origin: string,
  fallback = MAIN_PAGE,
): string {
  if (!target) return fallback;
  // Browsers treat backslashes as slashes and strip tabs/newlines: refuse them outright.
  if (target.includes("\\") || hasControlCharacter(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  if (url.protocol !== "http:" && url.protocol !== "https:") return fallback;
  // Dot segments can normalise to "//evil.com" (from "/.//evil.com"): protocol-relative, another host.
  if (url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
