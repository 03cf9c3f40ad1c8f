import { NextRequest } from "next/server";
import { expect } from "vitest";
import * as runRoute from "@/app/api/apps/[appId]/run/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { appSettings } from "@/db/schema";
import type { AppSettings } from "@/lib/apps/schemas";
import { RunStreamPart } from "@/lib/runs/schemas";
import type { createBuilder } from "./factories";
import { fromIp, randomIp } from "./factories";

// Tool runs as a browser makes them, for the integration tests of POST /api/apps/{appId}/run
// (tests/integration/runs.test.ts, run-timeout.test.ts): the real route, called in-process.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

/** An app of `owner` (published single-tool app unless told otherwise), with its settings. */
export async function newApp(
  owner: Builder,
  opts: {
    content?: Record<string, unknown>;
    settings?: Partial<AppSettings>;
    status?: "active" | "draft";
    type?: "tool" | "generated";
  } = {},
) {
  const app = await insertApp({
    ownerAccountId: owner.account.accountId,
    status: opts.status ?? "active",
    type: opts.type ?? "tool",
    header: "Run app",
    content: opts.content ?? { gptPrompt: "You are a helpful assistant." },
  });
  if (opts.settings) await db().insert(appSettings).values({ appId: app.id, settings: opts.settings });
  return app;
}

export type RunOpts = {
  token?: string;
  ip?: string;
  signal?: AbortSignal;
  toolId?: string;
  inputs?: Record<string, unknown>;
};

/** POSTs a run as a browser would; the answer is returned unread. */
export async function startRun(appId: string, o: RunOpts = {}) {
  const headers = new Headers({ "content-type": "application/json", ...fromIp(o.ip ?? randomIp()) });
  if (o.token) headers.set("authorization", `Bearer ${o.token}`);
  const req = new NextRequest(new URL(`/api/apps/${appId}/run`, "http://localhost:3000"), {
    method: "POST",
    headers,
    body: JSON.stringify({
      inputs: o.inputs ?? { input: "Hello there" },
      ...(o.toolId ? { toolId: o.toolId } : {}),
    }),
    signal: o.signal,
  });
  return runRoute.POST(req, { params: Promise.resolve({ appId }) });
}

/** The stream's parts, parsed and checked against the contract's schema; `done` when it ended with [DONE]. */
export function parseStream(text: string) {
  const events = text.split("\n\n").filter(Boolean);
  const done = events.at(-1) === "data: [DONE]";
  const parts = events
    .filter((e) => e !== "data: [DONE]")
    .map((e) => {
      expect(e.startsWith("data: ")).toBe(true);
      return RunStreamPart.parse(JSON.parse(e.slice(6)));
    });
  const answer = parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
  return { parts, done, answer };
}

/** A run read to its end: the JSON error, or the stream's parts. */
export async function run(appId: string, o: RunOpts = {}) {
  const res = await startRun(appId, o);
  const text = await res.text();
  const isStream = res.headers.get("content-type") === "text/event-stream";
  return {
    status: res.status,
    headers: res.headers,
    json: isStream
      ? null
      : (JSON.parse(text) as { error: { code: string; message: string }; [k: string]: unknown }),
    stream: isStream ? parseStream(text) : null,
  };
}

/** Waits until `check` passes: a run is recorded a moment after its stream ends. */
export async function eventually<T>(get: () => Promise<T>, check: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (check(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}
