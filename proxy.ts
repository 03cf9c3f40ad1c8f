import { type NextRequest, NextResponse } from "next/server";
import { decodeSessionToken, sessionCookieName } from "@/lib/auth/session-token";

// Page redirects only. Every route handler and page checks authorization itself: the proxy
// is a convenience, never the lock (CVE-2025-29927).
export async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const token = req.cookies.get(sessionCookieName())?.value;
  const claims = token ? await decodeSessionToken(token) : null;
  const here = `${pathname}${search}`;

  // Logged out, or signed in only as an end user of some app: builder pages need a builder.
  if (!claims || claims.tid !== null) {
    const url = new URL("/login", req.url);
    url.searchParams.set("redirectTo", here);
    return NextResponse.redirect(url);
  }
  if (!claims.ev) {
    const url = new URL("/auth/verifyEmail", req.url);
    url.searchParams.set("continueUrl", here);
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

// Builder pages only: /item/... and /tool/... (and everything public) are never redirected.
export const config = {
  matcher: [
    "/home",
    "/home/:path*",
    "/build/:path*",
    "/analytics/:path*",
    "/settings",
    "/settings/:path*",
    "/joinplan",
  ],
};
