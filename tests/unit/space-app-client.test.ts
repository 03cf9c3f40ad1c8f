import vm from "node:vm";
import * as esbuild from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { APP_CLIENT_SOURCE, CLIENT_TOKEN_TIMEOUT_MS } from "@/lib/space/preview/client-source";
import { CONFIG_GLOBAL } from "@/lib/space/preview/runtime-source";
import { RUNTIME_MESSAGE } from "@/lib/space/preview/types";

// The data client of a space app's code (@app/client), run as the frame runs it: its source text,
// compiled by esbuild, in a context of its own with a window whose parent is a stand-in for the
// page around the frame, a fetch that records every call and answers what the test says, and
// timers the test fires. No browser: what it checks is the client's own logic (the token asked
// of the parent, the calls it makes, the retry, the errors).

let compiled: string;
beforeAll(async () => {
  compiled = (await esbuild.transform(APP_CLIENT_SOURCE, { loader: "js", format: "cjs", target: "es2020" }))
    .code;
});

type Call = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  credentials?: string;
};
type Answer = { status: number; json?: unknown };
type Listener = (event: { source: unknown; data: unknown }) => void;

const APP_ID = "0b5a8c1e-3f4d-4e2a-9b7c-1d2e3f4a5b6c";
const API = "http://app.test";

function harness(opts: { standalone?: boolean } = {}) {
  const listeners = new Set<Listener>();
  const posted: unknown[] = [];
  const calls: Call[] = [];
  const answers: Answer[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const parent = { postMessage: (message: unknown) => posted.push(message) };
  const window: Record<string, unknown> = {
    addEventListener: (type: string, fn: Listener) => type === "message" && listeners.add(fn),
    removeEventListener: (type: string, fn: Listener) => type === "message" && listeners.delete(fn),
  };
  window.parent = opts.standalone ? window : parent;
  const fetch = async (url: string, init: Omit<Call, "url">) => {
    calls.push({ url, ...init });
    const answer = answers.shift() ?? { status: 200, json: {} };
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status < 300,
      json: async () => {
        if (answer.json === undefined) throw new SyntaxError("Unexpected end of JSON input");
        return answer.json;
      },
    };
  };
  const context = vm.createContext({
    window,
    fetch,
    Date,
    Proxy,
    JSON,
    Promise,
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms, cleared: false }) - 1,
    clearTimeout: (id: number) => {
      if (timers[id]) timers[id].cleared = true;
    },
    [CONFIG_GLOBAL]: {
      text: { clientTokenTimeout: "no token", clientNetworkError: "offline", clientRequestFailed: "failed" },
      runtime: { apiBase: API, appId: APP_ID, mode: "preview" },
    },
    module: { exports: {} as Record<string, unknown> },
  });
  context.globalThis = context;
  vm.runInContext(`${compiled}\n;globalThis.client = module.exports;`, context);
  const client = context.client as {
    entities: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
    auth: {
      me(): Promise<unknown>;
      updateMe(patch: object): Promise<unknown>;
      signIn(): void;
      signOut(): void;
    };
    AppClientError: new (...args: unknown[]) => Error;
  };
  /** The parent page answers the frame (or anyone else pretends to). */
  const reply = (data: unknown, source: unknown = parent) => {
    for (const fn of [...listeners]) fn({ source, data });
  };
  const token = (value: string | null, expiresInMs = 3_600_000) =>
    reply({
      type: RUNTIME_MESSAGE.token,
      token: value,
      expiresAt: value ? new Date(Date.now() + expiresInMs).toISOString() : null,
      user: value ? { id: "u1", email: "a@example.com", role: "user" } : null,
    });
  /** Fires the pending timers set for `ms` (the test's clock: nothing fires by itself). */
  const fire = (ms: number) => {
    for (const t of timers.filter((t) => t.ms === ms && !t.cleared)) {
      t.cleared = true;
      t.fn();
    }
  };
  // Lets the client's pending promises run up to its next wait.
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { client, posted, calls, answers, timers, fire, reply, token, settle, listeners };
}

const tokenRequests = (posted: unknown[]) =>
  posted.filter((m) => (m as { type: string }).type === RUNTIME_MESSAGE.tokenRequest).length;

describe("@app/client", () => {
  it("asks the parent for a token on the first call, then calls the data API with it as a bearer, never with credentials", async () => {
    const h = harness();
    h.answers.push({ status: 200, json: { records: [{ id: "r1", title: "x" }], nextCursor: "c2" } });
    const listed = h.client.entities.Task!.list!({ sort: "-createdAt", limit: 50, filter: { done: false } });
    await h.settle();
    expect(h.posted).toEqual([{ type: RUNTIME_MESSAGE.tokenRequest }]);
    expect(h.calls).toHaveLength(0); // it waits for the token
    h.token("tok-1");
    const records = (await listed) as unknown[] & { nextCursor: string };
    expect(records).toEqual([{ id: "r1", title: "x" }]);
    expect(records.nextCursor).toBe("c2");
    const [call] = h.calls;
    const url = new URL(call!.url);
    expect(url.origin + url.pathname).toBe(`${API}/api/apps/${APP_ID}/data/Task`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sort: "-createdAt",
      limit: "50",
      filter: JSON.stringify({ done: false }),
    });
    expect(call!.method).toBe("GET");
    expect(call!.headers.Authorization).toBe("Bearer tok-1");
    expect(call!.credentials).toBe("omit");
    expect(call!.body).toBeUndefined();

    // The token is kept: the next calls ask nothing more of the parent.
    h.answers.push({ status: 201, json: { id: "r2", title: "y" } });
    expect(await h.client.entities.Task!.create!({ title: "y" })).toEqual({ id: "r2", title: "y" });
    expect(tokenRequests(h.posted)).toBe(1);
    expect(h.calls[1]).toMatchObject({
      url: `${API}/api/apps/${APP_ID}/data/Task`,
      method: "POST",
      body: JSON.stringify({ title: "y" }),
    });
    expect(h.calls[1]!.headers["Content-Type"]).toBe("application/json");
  });

  it("makes each call of the data API: get, update (with ifUpdatedAt), delete, bulkCreate", async () => {
    const h = harness();
    const first = h.client.entities.Note!.get!("id/1");
    await h.settle();
    h.token("t");
    h.answers.push({ status: 200, json: { id: "id/1" } });
    await first;
    h.answers.push({ status: 200, json: { id: "n" } }, { status: 200, json: { deleted: true } });
    await h.client.entities.Note!.update!("n", { done: true }, { ifUpdatedAt: "2026-01-01T00:00:00.000Z" });
    expect(await h.client.entities.Note!.delete!("n")).toEqual({ deleted: true });
    h.answers.push({ status: 201, json: { records: [{ id: "a" }, { id: "b" }] } });
    expect(await h.client.entities.Note!.bulkCreate!([{ t: 1 }, { t: 2 }])).toEqual([
      { id: "a" },
      { id: "b" },
    ]);
    const base = `${API}/api/apps/${APP_ID}/data/Note`;
    expect(h.calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ["GET", `${base}/id%2F1`, undefined],
      ["PATCH", `${base}/n?ifUpdatedAt=2026-01-01T00%3A00%3A00.000Z`, JSON.stringify({ done: true })],
      ["DELETE", `${base}/n`, undefined],
      ["POST", `${base}/bulk`, JSON.stringify({ records: [{ t: 1 }, { t: 2 }] })],
    ]);
  });

  it("takes a token only from window.parent: another window's answer is ignored", async () => {
    const h = harness();
    const call = h.client.entities.Task!.list!();
    await h.settle();
    h.reply(
      { type: RUNTIME_MESSAGE.token, token: "forged", expiresAt: null, user: null },
      { postMessage() {} },
    );
    await h.settle();
    expect(h.calls).toHaveLength(0);
    h.token("real");
    h.answers.push({ status: 200, json: { records: [], nextCursor: null } });
    await call;
    expect(h.calls[0]!.headers.Authorization).toBe("Bearer real");
  });

  it("after 401 APP_TOKEN_EXPIRED asks once more and retries the call once", async () => {
    const h = harness();
    const expired = { status: 401, json: { error: { code: "APP_TOKEN_EXPIRED", message: "expired" } } };
    h.answers.push(expired, { status: 200, json: { id: "r1" } });
    const call = h.client.entities.Task!.get!("r1");
    await h.settle();
    h.token("old");
    await h.settle();
    await h.settle();
    expect(tokenRequests(h.posted)).toBe(2);
    h.token("new");
    expect(await call).toEqual({ id: "r1" });
    expect(h.calls.map((c) => c.headers.Authorization)).toEqual(["Bearer old", "Bearer new"]);

    // Refused again after the retry: the error, no third try.
    h.answers.push(expired, expired);
    const again = h.client.entities.Task!.get!("r1");
    await h.settle();
    await h.settle();
    h.token("newer");
    const err = (await again.catch((e: unknown) => e)) as { status: number; code: string };
    expect(err).toBeInstanceOf(h.client.AppClientError);
    expect(err).toMatchObject({ status: 401, code: "APP_TOKEN_EXPIRED" });
    expect(h.calls).toHaveLength(4);
  });

  it("an error answer is an AppClientError with status, code, message and field", async () => {
    const h = harness();
    h.answers.push({
      status: 400,
      json: { error: { code: "VALIDATION_FAILED", message: "title: must be string", field: "title" } },
    });
    const call = h.client.entities.Task!.create!({ title: 1 });
    await h.settle();
    h.token(null);
    const err = (await call.catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(err).toBeInstanceOf(h.client.AppClientError);
    expect({
      name: err.name,
      status: err.status,
      code: err.code,
      message: err.message,
      field: err.field,
    }).toEqual({
      name: "AppClientError",
      status: 400,
      code: "VALIDATION_FAILED",
      message: "title: must be string",
      field: "title",
    });
    // Anonymous: no Authorization header at all.
    expect(h.calls[0]!.headers.Authorization).toBeUndefined();
    // An answer without our error body still has a status and the client's text.
    h.answers.push({ status: 502 });
    await expect(h.client.entities.Task!.list!()).rejects.toMatchObject({
      status: 502,
      code: "HTTP_502",
      message: "failed",
      field: null,
    });
  });

  it("a parent that never answers: the call fails with APP_TOKEN_TIMEOUT once the wait is over", async () => {
    const h = harness();
    const call = h.client.entities.Task!.list!();
    await h.settle();
    h.fire(CLIENT_TOKEN_TIMEOUT_MS);
    await expect(call).rejects.toMatchObject({ status: 0, code: "APP_TOKEN_TIMEOUT", message: "no token" });
    // Nothing is left listening or waiting.
    expect(h.listeners.size).toBe(0);
    expect(h.timers.every((t) => t.cleared)).toBe(true);
    expect(CLIENT_TOKEN_TIMEOUT_MS).toBeGreaterThanOrEqual(5000);
  });

  it("asks again, less and less often, until the parent answers: a page still hydrating missed the first request", async () => {
    const h = harness();
    const call = h.client.entities.Task!.list!();
    await h.settle();
    expect(tokenRequests(h.posted)).toBe(1);
    h.fire(100);
    h.fire(200);
    h.fire(400);
    expect(tokenRequests(h.posted)).toBe(4);
    h.token("late");
    h.answers.push({ status: 200, json: { records: [], nextCursor: null } });
    await call;
    expect(h.calls[0]!.headers.Authorization).toBe("Bearer late");
    // Answered: no more requests, no timer left.
    expect(h.timers.every((t) => t.cleared)).toBe(true);
    expect(tokenRequests(h.posted)).toBe(4);
  });

  it("a parent that could not get a token says why, and the call fails with it", async () => {
    const h = harness();
    const call = h.client.entities.Task!.list!();
    await h.settle();
    h.reply({
      type: RUNTIME_MESSAGE.token,
      token: null,
      expiresAt: null,
      user: null,
      error: { status: 404, code: "NOT_FOUND", message: "App not found" },
    });
    await expect(call).rejects.toMatchObject({ status: 404, code: "NOT_FOUND", message: "App not found" });
    expect(h.calls).toHaveLength(0);
  });

  it("auth.me() is null for an anonymous viewer without calling, the user when signed in; signIn and signOut ask the parent", async () => {
    const anonymous = harness();
    const nobody = anonymous.client.auth.me();
    await anonymous.settle();
    anonymous.token(null);
    expect(await nobody).toBeNull();
    expect(anonymous.calls).toHaveLength(0);

    const h = harness();
    h.answers.push({ status: 200, json: { id: "u1", email: "a@example.com", role: "user", team: "blue" } });
    const me = h.client.auth.me();
    await h.settle();
    h.token("t");
    expect(await me).toMatchObject({ id: "u1", team: "blue" });
    expect(h.calls[0]!.url).toBe(`${API}/api/apps/${APP_ID}/runtime/me`);
    h.answers.push({ status: 200, json: { id: "u1", email: "a@example.com", role: "user", team: "red" } });
    expect(await h.client.auth.updateMe({ team: "red" })).toMatchObject({ team: "red" });
    expect([h.calls[1]!.method, h.calls[1]!.url, h.calls[1]!.body]).toEqual([
      "PATCH",
      `${API}/api/apps/${APP_ID}/runtime/me`,
      JSON.stringify({ team: "red" }),
    ]);

    h.client.auth.signIn();
    h.client.auth.signOut();
    expect(h.posted.slice(-2)).toEqual([{ type: RUNTIME_MESSAGE.signIn }, { type: RUNTIME_MESSAGE.signOut }]);
  });

  it("entities: any entity name is a client; other property reads are not (awaiting it, JSON)", async () => {
    const h = harness();
    const { entities } = h.client;
    expect(typeof entities.Task!.list).toBe("function");
    expect(entities.Task).toBe(entities.Task);
    expect(entities.then).toBeUndefined();
    expect(entities.toJSON).toBeUndefined();
    expect(entities["../x"]).toBeUndefined();
    expect("Task" in entities).toBe(true);
    // A document opened on its own (no page around it) is anonymous at once.
    const alone = harness({ standalone: true });
    alone.answers.push({ status: 200, json: { records: [], nextCursor: null } });
    await alone.client.entities.Task!.list!();
    expect(alone.posted).toHaveLength(0);
    expect(alone.calls[0]!.headers.Authorization).toBeUndefined();
  });
});
