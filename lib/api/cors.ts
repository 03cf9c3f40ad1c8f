import "server-only";
import type { NextRequest } from "next/server";

// The data API of a space app is called by the app's own code, from its frame: a sandboxed
// document of an opaque origin, whose requests say `Origin: null`. Those routes answer that
// origin and no other (our own pages are same-origin and need no header); they read no cookie
// (lib/api/route.ts, auth "appToken"), and their answers allow no credentials: what guards the
// data is the app token the request carries, which no other page has.

const RUNTIME_ORIGIN = "null";

/** The CORS headers of an answer of an app-token route to this request. */
export function runtimeCorsHeaders(req: NextRequest): Record<string, string> {
  const allowed = req.headers.get("origin") === RUNTIME_ORIGIN;
  return {
    Vary: "Origin",
    ...(allowed ? { "Access-Control-Allow-Origin": RUNTIME_ORIGIN } : {}),
  };
}

/** The answer to a CORS preflight of an app-token route: its methods, and the two headers the client sends. */
export function runtimePreflight(req: NextRequest, methods: readonly string[]): Response {
  const allowed = req.headers.get("origin") === RUNTIME_ORIGIN;
  return new Response(null, {
    status: 204,
    headers: allowed
      ? {
          Vary: "Origin",
          "Access-Control-Allow-Origin": RUNTIME_ORIGIN,
          "Access-Control-Allow-Methods": methods.join(", "),
          "Access-Control-Allow-Headers": "authorization, content-type",
          "Access-Control-Max-Age": "600",
        }
      : { Vary: "Origin" },
  });
}
