import "server-only";
import crypto from "node:crypto";
import { NextRequest } from "next/server";
import { BODY_CAPS, type BodyCap } from "./body-caps";
import { readBodyCapped } from "./read-body";
import { errorResponse, withHeaders } from "./route";

type Handler = (req: NextRequest) => Promise<Response>;

/**
 * For handlers that are not ours (Auth.js): the body is read with its cap first, then the
 * handler gets the same request with the bytes already in hand. Over the cap: 413, our shape.
 */
export function withCappedBody(handler: Handler, cap: BodyCap): Handler {
  return async (req) => {
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await readBodyCapped(req, BODY_CAPS[cap]);
    } catch (err) {
      return errorResponse(err, crypto.randomUUID(), req);
    }
    const res = await handler(
      new NextRequest(req.url, {
        method: req.method,
        headers: req.headers,
        body: body.byteLength ? body : undefined,
      }),
    );
    return withHeaders(res);
  };
}
