import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import * as signUp from "@/app/api/identity/sign-up/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as webhook from "@/app/api/webhooks/stripe/route";
import { BODY_CAPS } from "@/lib/api/body-caps";
import { messages } from "@/lib/messages";
import { createBuilder, fromIp } from "../support/factories";

// A 200 MB body once went straight into JSON.parse. Every route refuses a body over its cap
// with 413, from Content-Length before reading, and while reading a body that declares none.

const APP_URL = process.env.APP_URL ?? "http://localhost:3000";
const tooLarge = { error: { code: "PAYLOAD_TOO_LARGE", message: messages.payloadTooLarge } };

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const ctx = { params: Promise.resolve({}) };

/** A body of `total` bytes made on demand, counting how many bytes the server pulled. */
function endlessBody(total: number) {
  const chunk = new TextEncoder().encode(`{"pad":"${"x".repeat(16 * 1024)}`);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

async function post(handler: Handler, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const req = new NextRequest(`${APP_URL}${path}`, {
    method: "POST",
    headers: { ...fromIp(), ...headers },
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const res = await handler(req, ctx);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const routes: { name: string; handler: Handler; path: string; cap: number; type: string }[] = [
  {
    name: "a JSON route (sign-up)",
    handler: signUp.POST as Handler,
    path: "/api/identity/sign-up",
    cap: BODY_CAPS.json,
    type: "application/json",
  },
  {
    name: "the Auth.js credentials callback",
    handler: nextAuthRoute.POST as Handler,
    path: "/api/auth/callback/password",
    cap: BODY_CAPS.authForm,
    type: "application/x-www-form-urlencoded",
  },
  {
    name: "the Stripe webhook",
    handler: webhook.POST as Handler,
    path: "/api/webhooks/stripe",
    cap: BODY_CAPS.stripeWebhook,
    type: "application/json",
  },
];

describe.each(routes)("$name", ({ handler, path, cap, type }) => {
  it("refuses a declared length over its cap with 413, before reading the body", async () => {
    const { stream, pulled } = endlessBody(cap * 4);
    const res = await post(handler, path, stream, {
      "content-type": type,
      "content-length": String(cap * 4),
    });
    expect(res.status).toBe(413);
    expect(res.json).toEqual(tooLarge);
    expect(pulled()).toBeLessThanOrEqual(64 * 1024);
  });

  it("refuses a chunked body over its cap with 413, without reading it to the end", async () => {
    const { stream, pulled } = endlessBody(200 * 1024 * 1024);
    const res = await post(handler, path, stream, { "content-type": type });
    expect(res.status).toBe(413);
    expect(res.json).toEqual(tooLarge);
    expect(pulled()).toBeLessThan(cap + 64 * 1024);
  });
});

describe("routes that read no body", () => {
  it("refuse a declared length over the cap too", async () => {
    const builder = await createBuilder();
    const req = new NextRequest(`${APP_URL}/api/live_api/account/current`, {
      method: "GET",
      headers: { authorization: `Bearer ${builder.token}`, "content-length": String(BODY_CAPS.json + 1) },
    });
    const res = await current.GET(req, ctx);
    expect(res.status).toBe(413);
  });
});

describe("bodies within their cap", () => {
  it("are read as before", async () => {
    const res = await post(signUp.POST as Handler, "/api/identity/sign-up", JSON.stringify({ email: 1 }), {
      "content-type": "application/json",
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("INVALID_INPUT");
  });
});
