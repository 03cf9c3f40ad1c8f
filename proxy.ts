import { type NextRequest, NextResponse } from "next/server";
import { decodeSessionToken, sessionCookieName } from "@/lib/auth/session-token";
import { pageSecurityHeaders } from "@/lib/security/headers";

// Two jobs, neither of them authorization. Every route handler and page checks authorization
// itself: the proxy is a convenience, never the lock (CVE-2025-29927).
//   1. Every page gets its security headers, with a fresh nonce that Next puts on its scripts.
//   2. Builder pages redirect the logged-out and the unverified where they need to go.
export async function proxy(req: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const headers = pageSecurityHeaders(nonce, req.nextUrl.pathname);
  const res = (await builderRedirect(req)) ?? nextWithNonce(req, headers["Content-Security-Policy"]!);
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
}

// Next reads the nonce from the request's Content-Security-Policy header.
function nextWithNonce(req: NextRequest, csp: string): NextResponse {
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("Content-Security-Policy", csp);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

// claim: an invitation link is taken up by a signed-in builder, so a visitor logs in first.
const BUILDER_PAGES = /^\/(home|build|analytics|settings|joinplan|claim|admin)(\/|$)/;

async function builderRedirect(req: NextRequest): Promise<NextResponse | null> {
  const { pathname, search } = req.nextUrl;
  // /item/... and /tool/... (and everything public) are never redirected.
  if (!BUILDER_PAGES.test(pathname)) return null;
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
  return null;
}

// Every page; not API routes (the route wrapper sets their headers) nor Next's static files.
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
