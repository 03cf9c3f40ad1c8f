import { NextRequest } from "next/server";
import { expect } from "vitest";
import * as authorize from "../../app/api/integrations/[provider]/authorize/route";
import * as callback from "../../app/api/integrations/[provider]/callback/route";
import * as fetchTokens from "../../app/api/integrations/fetchCarbonTokens/route";
import { call } from "./http";

// The connect flow of the Data Sources dialog, driven as the browser drives it: our authorize
// route, the provider's consent page (a local server speaking the provider's OAuth), its redirect
// back to our callback, whose answer is an HTML page.

type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** Calls a route that answers a page (or a redirect), as Next would. */
export async function callPage(
  handler: Handler,
  o: { path: string; cookie?: string; params?: Record<string, string> },
): Promise<{ status: number; headers: Headers; text: string; message: string | null }> {
  const headers = new Headers();
  if (o.cookie) headers.set("cookie", o.cookie);
  const req = new NextRequest(new URL(o.path, "http://localhost:3000"), { method: "GET", headers });
  const res = await handler(req, { params: Promise.resolve(o.params ?? {}) });
  const text = await res.text();
  const m = text.match(/<p role="status">([^<]*)<\/p>/);
  return { status: res.status, headers: res.headers, text, message: m ? unescapeHtml(m[1]!) : null };
}

const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) =>
    e === "amp" ? "&" : e === "lt" ? "<" : e === "gt" ? ">" : e === "quot" ? '"' : "'",
  );

export type ConnectorTokens = {
  accessToken: string;
  expiresAt: string;
  maxFiles: number;
  webScraper: { maxDepth: number; maxPages: number };
  connectors: Record<
    "notion" | "google-drive",
    { configured: boolean; missingEnv: string[]; connected: boolean; accountName: string | null }
  >;
};

export async function fetchConnectorTokens(who: { token: string }, appId: string) {
  const res = await call<ConnectorTokens>(fetchTokens.GET, {
    method: "GET",
    path: `/api/integrations/fetchCarbonTokens?appId=${appId}`,
    token: who.token,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

/** Our authorize route, then the provider's consent page: where the provider sends the browser back. */
export async function consent(
  who: { cookie: string },
  provider: "notion" | "google-drive",
  token: string,
): Promise<URL> {
  const auth = await callPage(authorize.GET, {
    path: `/api/integrations/${provider}/authorize?token=${encodeURIComponent(token)}`,
    cookie: who.cookie,
    params: { provider },
  });
  expect(auth.status, auth.text).toBe(302);
  const atProvider = await fetch(auth.headers.get("location")!, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  return new URL(atProvider.headers.get("location")!);
}

/** Back at our callback with what the provider sent. */
export function returnTo(back: URL, who: { cookie?: string }, provider: "notion" | "google-drive") {
  return callPage(callback.GET, {
    path: `${back.pathname}${back.search}`,
    cookie: who.cookie,
    params: { provider },
  });
}

/** The whole flow, which must end connected. */
export async function connectProvider(
  who: { token: string; cookie: string },
  appId: string,
  provider: "notion" | "google-drive",
) {
  const { accessToken } = await fetchConnectorTokens(who, appId);
  const page = await returnTo(await consent(who, provider, accessToken), who, provider);
  expect(page.status, page.text).toBe(200);
  expect(page.text).toContain('"type":"connector-connected"');
  return page;
}
