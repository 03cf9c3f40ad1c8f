import { beforeAll, describe, expect, it } from "vitest";
import * as recordRoute from "@/app/api/apps/[appId]/data/[entity]/[recordId]/route";
import * as bulkRoute from "@/app/api/apps/[appId]/data/[entity]/bulk/route";
import * as listRoute from "@/app/api/apps/[appId]/data/[entity]/route";
import * as meRoute from "@/app/api/apps/[appId]/runtime/me/route";
import * as tokenRoute from "@/app/api/apps/[appId]/runtime/token/route";
import { revokeSession } from "@/db/queries/sessions";
import type { App } from "@/db/schema";
import { decodeSessionToken } from "@/lib/auth/session-token";
import { APP_DATA_ANONYMOUS_WRITES_PER_MINUTE, ENTITY_RECORD_BYTES_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { appTokenFor, publish, setEntity, taskSchema } from "../support/app-data";
import { createBuilder, createEndUser, fromIp } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp } from "../support/space";

// The data API of a space app's own code (lib/app-data): tokens, records checked against the
// entity's schema, the caller's rows only, tokens of one app and one session, CORS for the frame.
// Every preset against every kind of caller is tests/integration/app-data-access.test.ts.

type Rec = { id: string; creatorId: string | null; title?: string; done?: boolean; [k: string]: unknown };
type Err = { error: { code: string; message: string; field?: string } };

let builder: Awaited<ReturnType<typeof createBuilder>>;
let app: App;
let alice: Awaited<ReturnType<typeof createEndUser>>;
let bob: Awaited<ReturnType<typeof createEndUser>>;
let aliceToken: string;
let bobToken: string;
let builderToken: string;

const data = (entity = "Task") => ({ appId: app.id, entity });
const list = (token: string | undefined, query = "", entity = "Task", headers: Record<string, string> = {}) =>
  call<{ records: Rec[]; nextCursor: string | null } & Err>(listRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/data/${entity}${query}`,
    params: data(entity),
    token,
    headers,
  });
const create = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  call<Rec & Err>(listRoute.POST, {
    path: `/api/apps/${app.id}/data/Task`,
    params: data(),
    token,
    body,
    headers,
  });
const RECORD_HANDLERS = { GET: recordRoute.GET, PATCH: recordRoute.PATCH, DELETE: recordRoute.DELETE };
const one = (
  method: "GET" | "PATCH" | "DELETE",
  token: string | undefined,
  id: string,
  body?: unknown,
  query = "",
) =>
  call<Rec & Err>(RECORD_HANDLERS[method], {
    method,
    path: `/api/apps/${app.id}/data/Task/${id}${query}`,
    params: { ...data(), recordId: id },
    token,
    body,
  });

beforeAll(async () => {
  builder = await createBuilder();
  app = await createSpaceApp(builder.account.accountId, "Tasks");
  await setEntity(app, builder.account.accountId, "Task", taskSchema("creator", "creator"));
  await publish(app);
  alice = await createEndUser(app.id);
  bob = await createEndUser(app.id);
  [aliceToken, bobToken, builderToken] = await Promise.all([
    appTokenFor(app.id, alice.token),
    appTokenFor(app.id, bob.token),
    appTokenFor(app.id, builder.token),
  ]);
});

describe("POST /api/apps/{appId}/runtime/token", () => {
  const ask = (appId: string, cookie?: string, headers: Record<string, string> = {}) =>
    call<{ token: string | null; user: { role: string; email: string } | null } & Err>(tokenRoute.POST, {
      path: `/api/apps/${appId}/runtime/token`,
      params: { appId },
      cookie,
      headers,
      body: {},
    });

  it("gives the builder an admin token, an end user of the app their own, anybody else none", async () => {
    const b = await ask(app.id, builder.cookie);
    expect(b.status).toBe(200);
    expect(b.json.user).toMatchObject({ role: "admin", email: builder.user.email });
    const a = await ask(app.id, alice.cookie);
    expect(a.json.user).toMatchObject({ role: "user", email: alice.user.email });
    expect(a.json.token).toEqual(expect.any(String));
    expect((await ask(app.id)).json).toEqual({ token: null, expiresAt: null, user: null });
    // An end user of another app, and a builder of another app, are nobody here.
    const other = await createSpaceApp(builder.account.accountId, "Other");
    await publish(other);
    const stranger = await createEndUser(other.id);
    expect((await ask(app.id, stranger.cookie)).json.token).toBeNull();
    expect((await ask(app.id, (await createBuilder()).cookie)).json.token).toBeNull();
  });

  it("answers 404 for a draft to anybody but its builder, and for an app that is not a space app", async () => {
    const draft = await createSpaceApp(builder.account.accountId, "Draft");
    expect((await ask(draft.id)).status).toBe(404);
    expect((await ask(draft.id, (await createBuilder()).cookie)).status).toBe(404);
    expect((await ask(draft.id, builder.cookie)).json.token).toEqual(expect.any(String));
  });

  it("refuses a cookie sent from another site (no page elsewhere can mint a token)", async () => {
    const res = await ask(app.id, alice.cookie, {
      "sec-fetch-site": "cross-site",
      origin: "https://evil.example",
    });
    expect(res.status).toBe(403);
  });
});

describe("records through the data API", () => {
  it("creates records checked against the schema, with its defaults, creator and times", async () => {
    const res = await create(aliceToken, { title: "Buy milk", tags: ["home"] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      title: "Buy milk",
      done: false,
      tags: ["home"],
      creatorId: alice.user.id,
    });
    expect(res.json.createdAt).toBe(res.json.updatedAt);
  });

  it("answers 400 naming the field for a record the schema refuses, or one setting a built-in field", async () => {
    const cases: [unknown, string][] = [
      [{ done: true }, "title"],
      [{ title: "" }, "title"],
      [{ title: "x", done: "yes" }, "done"],
      [{ title: "x", due: "next week" }, "due"],
      [{ title: "x", tags: ["a", 2] }, "tags.1"],
      [{ title: "x", id: "0b6a2f0e-5b7c-4c1e-9f7e-2d8c1a3b4e5f" }, "id"],
      [{ title: "x", creatorId: bob.user.id }, "creatorId"],
      [{ title: "x", createdAt: "2020-01-01T00:00:00Z" }, "createdAt"],
    ];
    for (const [body, field] of cases) {
      const res = await create(aliceToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.field).toBe(field);
      expect(res.json.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await create(aliceToken, { title: "x" })).json.error).toBeUndefined();
  });

  it("refuses hostile records with a 4xx: NUL, broken text, deep nesting, over the size cap", async () => {
    expect((await create(aliceToken, { title: "a\u0000b" })).status).toBe(400);
    expect((await create(aliceToken, { title: "a\ud800b" })).status).toBe(400);
    // As deep as the body cap allows: refused, not a stack overflow.
    const depth = 8000;
    const deep = await call<Err>(listRoute.POST, {
      path: `/api/apps/${app.id}/data/Task`,
      params: data(),
      token: aliceToken,
      rawBody: `{"title":"deep","tags":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(deep.status).toBe(400);
    const big = await create(aliceToken, { title: "x".repeat(ENTITY_RECORD_BYTES_MAX) });
    expect(big.status).toBe(413);
    const filter = await list(aliceToken, `?filter=${encodeURIComponent("[1]")}`);
    expect(filter.status).toBe(400);
    expect(filter.json.error.field).toBe("filter");
    expect((await list(aliceToken, `?filter=${encodeURIComponent('{"nope":1}')}`)).status).toBe(400);
    // A NUL or a lone surrogate escaped inside the filter's JSON (the query string itself is clean).
    for (const title of ["a\u0000b", "a\ud800b"]) {
      const unstorable = await list(aliceToken, `?filter=${encodeURIComponent(JSON.stringify({ title }))}`);
      expect(unstorable.status, JSON.stringify(title)).toBe(400);
      expect(unstorable.json.error.field).toBe("filter");
    }
  });

  it("lists only the caller's own rows under 'creator', newest first, filtered and paged", async () => {
    const mine = await create(bobToken, { title: "Bob's first" });
    await create(bobToken, { title: "Bob's second", done: true });
    const bobs = await list(bobToken);
    expect(bobs.json.records.map((r) => r.title)).toEqual(["Bob's second", "Bob's first"]);
    expect(bobs.json.records.every((r) => r.creatorId === bob.user.id)).toBe(true);
    const done = await list(bobToken, `?filter=${encodeURIComponent('{"done":true}')}`);
    expect(done.json.records.map((r) => r.title)).toEqual(["Bob's second"]);
    const oldest = await list(bobToken, "?sort=createdAt&limit=1");
    expect(oldest.json.records.map((r) => r.title)).toEqual(["Bob's first"]);
    const next = await list(bobToken, `?sort=createdAt&limit=1&cursor=${oldest.json.nextCursor}`);
    expect(next.json.records.map((r) => r.title)).toEqual(["Bob's second"]);
    // Alice's rows are not Bob's to see, get, change or delete: not found, as if they did not exist.
    expect((await list(aliceToken)).json.records.some((r) => r.creatorId === bob.user.id)).toBe(false);
    expect((await one("GET", aliceToken, mine.json.id)).status).toBe(404);
    expect((await one("PATCH", aliceToken, mine.json.id, { done: true })).status).toBe(404);
    expect((await one("DELETE", aliceToken, mine.json.id)).status).toBe(404);
    // The builder is the app's admin: every row.
    const all = await list(builderToken, "?limit=200");
    expect(new Set(all.json.records.map((r) => r.creatorId))).toEqual(new Set([alice.user.id, bob.user.id]));
  });

  it("updates a record as a whole checked record, and refuses a stale one with 409", async () => {
    const rec = (await create(aliceToken, { title: "Call the plumber" })).json;
    const done = await one("PATCH", aliceToken, rec.id, { done: true });
    expect(done.json).toMatchObject({ title: "Call the plumber", done: true });
    expect(String(done.json.updatedAt) > String(rec.updatedAt)).toBe(true);
    expect((await one("PATCH", aliceToken, rec.id, { title: 5 })).json.error?.field).toBe("title");
    const stale = await one("PATCH", aliceToken, rec.id, { done: false }, `?ifUpdatedAt=${rec.updatedAt}`);
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe("RECORD_CHANGED");
    expect((await one("PATCH", aliceToken, rec.id, { id: rec.id })).json.error?.field).toBe("id");
    expect((await one("DELETE", aliceToken, rec.id)).json).toEqual({ deleted: true });
    expect((await one("GET", aliceToken, rec.id)).status).toBe(404);
  });

  it("creates several records all or none", async () => {
    const bulk = (records: unknown[]) =>
      call<{ records: Rec[] } & Err>(bulkRoute.POST, {
        path: `/api/apps/${app.id}/data/Task/bulk`,
        params: data(),
        token: aliceToken,
        body: { records },
      });
    const bad = await bulk([{ title: "ok" }, { title: 3 }]);
    expect(bad.status).toBe(400);
    expect(bad.json.error.field).toBe("records.1.title");
    const before = (await list(aliceToken, "?limit=200")).json.records.length;
    expect((await list(aliceToken, "?limit=200")).json.records.length).toBe(before);
    const ok = await bulk([{ title: "one" }, { title: "two" }]);
    expect(ok.json.records.map((r) => r.title)).toEqual(["one", "two"]);
  });
});

describe("who the token says the caller is", () => {
  it("refuses a token of another app, a session token, and a token whose session ended", async () => {
    const other = await createSpaceApp(builder.account.accountId, "Other app");
    await setEntity(other, builder.account.accountId, "Task", taskSchema("anonymous", "anonymous"));
    await publish(other);
    const otherToken = await appTokenFor(other.id, builder.token);
    const foreign = await list(otherToken);
    expect(foreign.status).toBe(401);
    expect(foreign.json.error.code).toBe("APP_TOKEN_INVALID");
    // A session's own bearer token is not an app token.
    expect((await list(alice.token)).status).toBe(401);
    const carol = await createEndUser(app.id);
    const carolToken = await appTokenFor(app.id, carol.token);
    expect((await list(carolToken)).status).toBe(200);
    const claims = await decodeSessionToken(carol.token);
    await revokeSession(claims!.sid as string, carol.user.id);
    expect((await list(carolToken)).status).toBe(401);
  });

  it("reads no cookie: a signed-in end user's cookie alone is anonymous", async () => {
    const res = await call<Err>(listRoute.POST, {
      path: `/api/apps/${app.id}/data/Task`,
      params: data(),
      cookie: alice.cookie,
      body: { title: "from a cookie" },
    });
    expect(res.status).toBe(401);
    expect(res.json.error.message).toBe(messages.appDataSignInRequired);
  });

  it("answers auth.me() and lets an end user change their own fields, never their role", async () => {
    const me = (method: "GET" | "PATCH", token: string | undefined, body?: unknown) =>
      call<{ email: string; role: string; nickname?: string } & Err>(
        method === "GET" ? meRoute.GET : meRoute.PATCH,
        {
          method,
          path: `/api/apps/${app.id}/runtime/me`,
          params: { appId: app.id },
          token,
          body,
        },
      );
    expect((await me("GET", aliceToken)).json).toMatchObject({ email: alice.user.email, role: "user" });
    expect((await me("GET", undefined)).status).toBe(401);
    expect((await me("PATCH", aliceToken, { nickname: "Al" })).json.nickname).toBe("Al");
    expect((await me("GET", aliceToken)).json.nickname).toBe("Al");
    expect((await me("PATCH", aliceToken, { role: "admin" })).status).toBe(403);
    expect((await me("PATCH", aliceToken, { email: "x@example.com" })).status).toBe(400);
  });
});

describe("the frame's origin", () => {
  it("answers CORS to the sandboxed frame's null origin only, and its preflight", async () => {
    const fromFrame = await list(aliceToken, "", "Task", { origin: "null" });
    expect(fromFrame.headers.get("access-control-allow-origin")).toBe("null");
    expect(fromFrame.headers.get("access-control-allow-credentials")).toBeNull();
    const fromElsewhere = await list(aliceToken, "", "Task", { origin: "https://evil.example" });
    expect(fromElsewhere.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await call(listRoute.OPTIONS, {
      method: "OPTIONS",
      path: `/api/apps/${app.id}/data/Task`,
      params: data(),
      headers: { origin: "null", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, POST");
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
  });
});

describe("anonymous writes", () => {
  it("are limited per app and address, and a parallel burst never gets past the limit", async () => {
    const open = await createSpaceApp(builder.account.accountId, "Guest book");
    await setEntity(open, builder.account.accountId, "Task", taskSchema("admin", "anonymous"));
    await publish(open);
    const ip = fromIp();
    const burst = await Promise.all(
      Array.from({ length: APP_DATA_ANONYMOUS_WRITES_PER_MINUTE + 10 }, (_, i) =>
        call(listRoute.POST, {
          path: `/api/apps/${open.id}/data/Task`,
          params: { appId: open.id, entity: "Task" },
          body: { title: `Entry ${i}` },
          headers: ip,
        }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(APP_DATA_ANONYMOUS_WRITES_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    // Anonymous writers cannot read back what only admins may see.
    const read = await call<{ records: unknown[] }>(listRoute.GET, {
      method: "GET",
      path: `/api/apps/${open.id}/data/Task`,
      params: { appId: open.id, entity: "Task" },
    });
    expect(read.json.records).toEqual([]);
  });

  it("count each record of a bulk create", async () => {
    const open = await createSpaceApp(builder.account.accountId, "Guest book 2");
    await setEntity(open, builder.account.accountId, "Task", taskSchema("admin", "anonymous"));
    await publish(open);
    const ip = fromIp();
    const bulk = (n: number) =>
      call(bulkRoute.POST, {
        path: `/api/apps/${open.id}/data/Task/bulk`,
        params: { appId: open.id, entity: "Task" },
        body: { records: Array.from({ length: n }, (_, i) => ({ title: `Entry ${i}` })) },
        headers: ip,
      });
    expect((await bulk(APP_DATA_ANONYMOUS_WRITES_PER_MINUTE - 1)).status).toBe(200);
    expect((await bulk(2)).status).toBe(429);
    expect((await bulk(1)).status).toBe(429);
  });
});
