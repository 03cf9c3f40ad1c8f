import type { IncomingMessage, ServerResponse } from "node:http";
import { messages } from "@/lib/messages";
import { apiSecurityHeaders } from "./headers";

// A path whose percent escapes are not UTF-8 (/app/%C0%AF, a cut /api/apps/%E0%A4%A, an escaped
// lone surrogate %ED%A0%80) cannot be decoded into route parameters: Next's router fails on it
// before any handler or page runs, and answered a bare 500. Our server (scripts/server.ts) answers
// such a request itself, 400, before Next sees it.

/** The styled page a malformed page address is shown (app/(public)/bad-address). */
export const BAD_ADDRESS_PAGE = "/bad-address";

/** Whether the path of a request target (`/a/b?c`) has a percent escape that does not decode. */
export function hasMalformedPath(target: string): boolean {
  // Every request passes here: one without a percent sign has nothing to decode.
  if (!target.includes("%")) return false;
  const q = target.indexOf("?");
  try {
    decodeURIComponent(q === -1 ? target : target.slice(0, q));
    return false;
  } catch {
    return true;
  }
}

/**
 * Answers a request with a malformed path, 400: the API's JSON error under /api; elsewhere the
 * styled page, rendered by Next (`render`) at BAD_ADDRESS_PAGE with its status forced to 400.
 */
export function answerMalformedPath(
  req: IncomingMessage,
  res: ServerResponse,
  render: (req: IncomingMessage, res: ServerResponse) => unknown,
): void {
  if (/^\/api(\/|%2f|$)/i.test(req.url ?? "")) {
    const body = JSON.stringify({ error: { code: "MALFORMED_PATH", message: messages.badAddressTitle } });
    res.writeHead(400, { ...apiSecurityHeaders(), "content-type": "application/json" });
    res.end(body);
    return;
  }
  req.url = BAD_ADDRESS_PAGE;
  // Next sets the page's own status (200); the answer is a 400 whatever it sets.
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((_status: number, ...rest: unknown[]) => writeHead(400, ...rest)) as typeof res.writeHead;
  res.statusCode = 400;
  void render(req, res);
}
