import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/apps/[appId]/data/[entity]/route";
import { findRuntimeRecord, insertRuntimeRecords, listRuntimeRecords } from "@/db/queries/app-data";
import type { App } from "@/db/schema";
import { BODY_CAPS } from "@/lib/api/body-caps";
import { FUNCTION_DATA_CALLS_AT_ONCE } from "@/lib/constants";
import { serveFunctionData } from "@/lib/functions/data-gateway";
import { deployAllFunctions } from "@/lib/functions/deploy";
import { DATA_TOKEN_HEADER, startEgressGateway } from "@/lib/functions/egress-gateway";
import { createFunctionRuntime, type FunctionRuntime } from "@/lib/functions/runtime";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { appTokenFor, setEntity, taskSchema } from "../support/app-data";
import { createEndUser } from "../support/factories";
import { call } from "../support/http";
import { builderAppWithEntity, say } from "../support/space";

// A space app's backend function uses the app's data client (`import { entities } from
// "@app/client"`) as the app's service role: every record of its own app whatever the entities'
// access levels, the schema's checks still applied, and nothing of any other app, whatever the
// function (or its public caller) sends. Real Deno, real PostgreSQL.

const SLOW = 120_000;

// One function that does what its path says with the data client, or with the raw ways a hostile
// function has to the gateway: the harness's data door with a path of its own, and a TCP socket.
const DATA_FUNCTION = `
import { entities } from "@app/client";

const door = (globalThis as any)[Symbol.for("function-runtime.app-data")];
const json = (v: unknown) => Response.json(v);
const out = async (work: () => Promise<unknown>) => {
  try {
    return json({ ok: await work() });
  } catch (e: any) {
    return json({ error: { name: e.name, status: e.status, code: e.code, message: e.message, field: e.field } });
  }
};

async function rawHttp(port: number, request: string): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(new TextEncoder().encode(request));
  const buf = new Uint8Array(65536);
  let text = "";
  for (;;) {
    const n = await c.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  c.close();
  return text;
}

Deno.serve(async (req: Request) => {
  const url = new URL(req.url);
  const q = (n: string) => url.searchParams.get(n) ?? "";
  const body: any = req.method === "POST" ? await req.json() : null;
  const entity = () => (entities as any)[q("entity") || "Task"];
  switch (url.pathname) {
    case "/list": return out(async () => { const r = await entity().list(body ?? {}); return { records: r, nextCursor: r.nextCursor }; });
    case "/get": return out(() => entity().get(q("id")));
    case "/create": return out(() => entity().create(body));
    case "/update": return out(() => entity().update(q("id"), body));
    case "/delete": return out(() => entity().delete(q("id")));
    case "/bulk": return out(() => entity().bulkCreate(body));
    case "/parallel": return out(() => Promise.all(body.map((title: string) => entities.Task.create({ title }))));
    case "/door": return out(async () => {
      const res = await door(body.method, body.path, body.body);
      return { status: res.status, answer: await res.text() };
    });
    case "/tcp": return out(() => rawHttp(Number(body.port ?? Deno.args[1]), body.request));
    case "/port": return json({ port: Number(Deno.args[1]) });
    case "/seen": return out(async () => ({
      url: req.url,
      headers: [...req.headers],
      titles: (await entities.Task.list({ limit: 100 })).map((r: any) => r.title),
    }));
  }
  return json({ unknown: url.pathname });
});
`;

type Outcome = {
  ok?: unknown;
  error?: { name: string; status: number; code: string; message: string; field: string | null };
};
type Rec = { id: string; title: string; creatorId: string | null; done?: boolean };

/** A GET of the gateway's door, with a token, and an app id in a header the gateway must ignore. */
function gatewayGet(port: number, token: string, path: string, appIdHeader = "") {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(
        {
          host: "127.0.0.1",
          port,
          path,
          agent: false,
          headers: { [DATA_TOKEN_HEADER]: token, "x-app-id": appIdHeader },
        },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      )
      .on("error", reject);
  });
}

describe("a function's data client, as its app's service role", () => {
  let runtime: FunctionRuntime;
  let a: { app: App; accountId: string; token: string; userId: string };
  let b: { app: App; accountId: string };
  let bSecret: Rec;
  let bTask: Rec;
  let aliceRecord: Rec;

  const fn = async (app: App, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await runtime.call({
      appId: app.id,
      name: "data.ts",
      code: DATA_FUNCTION,
      secrets: {},
      request: {
        method: body === undefined ? "GET" : "POST",
        url: path,
        headers: { "content-type": "application/json", ...headers },
        body: body === undefined ? null : JSON.stringify(body),
      },
    });
    expect(res.status).toBe(200);
    return JSON.parse(new TextDecoder().decode(res.body)) as Outcome;
  };
  const inA = (path: string, body?: unknown, headers?: Record<string, string>) =>
    fn(a.app, path, body, headers);
  const ok = <T>(o: Outcome): T => {
    expect(o.error).toBeUndefined();
    return o.ok as T;
  };
  const bRecordsIntact = async () => {
    expect(await findRuntimeRecord(b.app.id, "Secret", bSecret.id)).toMatchObject({
      data: { title: "b only" },
    });
    expect(await findRuntimeRecord(b.app.id, "Task", bTask.id)).toMatchObject({ data: { title: "b task" } });
    const bTasks = await listRuntimeRecords({
      appId: b.app.id,
      entity: "Task",
      limit: 100,
      order: "createdAt",
      direction: "asc",
      after: null,
    });
    expect(bTasks.map((r) => r.data.title)).toEqual(["b task"]);
  };

  beforeAll(async () => {
    // App A: Task readable and writable by each record's creator only, Locked by nobody.
    const made = await builderAppWithEntity("Task", taskSchema("creator", "creator"));
    a = { app: made.app, accountId: made.b.account.accountId, token: made.b.token, userId: made.b.user.id };
    await setEntity(a.app, a.accountId, "Locked", taskSchema("none", "none"));
    const alice = await createEndUser(a.app.id);
    [aliceRecord] = (
      await insertRuntimeRecords(a.app.id, "Task", [
        { creatorId: alice.user.id, data: { title: "alice's", done: false } },
      ])
    ).map((r) => ({ id: r.id, title: String(r.data.title), creatorId: r.creatorId })) as [Rec];
    // App B: its own Task (open to anybody) and a Secret entity A has not.
    const other = await builderAppWithEntity("Task", taskSchema("anonymous", "anonymous"));
    b = { app: other.app, accountId: other.b.account.accountId };
    await setEntity(b.app, b.accountId, "Secret", taskSchema("anonymous", "anonymous"));
    [bTask] = (
      await insertRuntimeRecords(b.app.id, "Task", [{ creatorId: null, data: { title: "b task" } }])
    ).map((r) => ({ id: r.id, title: String(r.data.title), creatorId: r.creatorId })) as [Rec];
    [bSecret] = (
      await insertRuntimeRecords(b.app.id, "Secret", [{ creatorId: null, data: { title: "b only" } }])
    ).map((r) => ({ id: r.id, title: String(r.data.title), creatorId: r.creatorId })) as [Rec];
    runtime = createFunctionRuntime();
  }, SLOW);

  afterAll(async () => {
    await runtime?.close();
  });

  it(
    "lists, gets, creates, updates, deletes and bulk-creates its app's records",
    async () => {
      const created = ok<Rec>(await inA("/create", { title: "from the function" }));
      expect(created).toMatchObject({ title: "from the function", done: false, creatorId: null });
      expect(ok<Rec>(await inA(`/get?id=${created.id}`))).toMatchObject({ id: created.id });
      const updated = ok<Rec>(await inA(`/update?id=${created.id}`, { done: true }));
      expect(updated).toMatchObject({ id: created.id, title: "from the function", done: true });
      const bulk = ok<Rec[]>(await inA("/bulk", [{ title: "one" }, { title: "two" }]));
      expect(bulk.map((r) => r.title)).toEqual(["one", "two"]);
      const page = ok<{ records: Rec[]; nextCursor: string | null }>(
        await inA("/list", { sort: "createdAt", limit: 2 }),
      );
      expect(page.records.map((r) => r.title)).toEqual(["alice's", "from the function"]);
      const next = ok<{ records: Rec[] }>(await inA("/list", { sort: "createdAt", cursor: page.nextCursor }));
      // One bulk is one instant: its records' order is their ids'.
      expect(next.records.map((r) => r.title).sort()).toEqual(["one", "two"]);
      const filtered = ok<{ records: Rec[] }>(await inA("/list", { filter: { done: true } }));
      expect(filtered.records.map((r) => r.title)).toEqual(["from the function"]);
      expect(ok(await inA(`/delete?id=${created.id}`))).toEqual({ deleted: true });
      expect(await findRuntimeRecord(a.app.id, "Task", created.id)).toBeUndefined();
      expect((await inA(`/get?id=${created.id}`)).error).toMatchObject({
        name: "AppClientError",
        status: 404,
        code: "RECORD_NOT_FOUND",
        message: messages.entityRecordNotFound,
      });
    },
    SLOW,
  );

  it(
    "reads and writes whatever the entity's levels say: another user's record, an entity nobody may use",
    async () => {
      // Task is the creator's only: the function still reads and changes alice's record.
      expect(ok<Rec>(await inA(`/get?id=${aliceRecord.id}`))).toMatchObject({ title: "alice's" });
      expect(ok<Rec>(await inA(`/update?id=${aliceRecord.id}`, { done: true }))).toMatchObject({
        done: true,
        creatorId: aliceRecord.creatorId,
      });
      // Locked says none and none.
      const locked = ok<Rec>(await inA("/create?entity=Locked", { title: "kept" }));
      expect(ok<{ records: Rec[] }>(await inA("/list?entity=Locked")).records.map((r) => r.title)).toEqual([
        "kept",
      ]);
      expect(ok<Rec>(await inA(`/update?id=${locked.id}&entity=Locked`, { title: "changed" }))).toMatchObject(
        {
          title: "changed",
        },
      );
      expect(ok<Rec[]>(await inA("/bulk?entity=Locked", [{ title: "more" }]))).toHaveLength(1);
      expect(ok(await inA(`/delete?id=${locked.id}&entity=Locked`))).toEqual({ deleted: true });
    },
    SLOW,
  );

  it(
    "gets the schema's 400 for a bad record, with the message and field the data API gives",
    async () => {
      // The same bad record through the pages' data API, as the app's builder.
      const appToken = await appTokenFor(a.app.id, a.token);
      const viaApi = await call<{ error: { code: string; message: string; field?: string } }>(
        listRoute.POST,
        {
          path: `/api/apps/${a.app.id}/data/Task`,
          params: { appId: a.app.id, entity: "Task" },
          token: appToken,
          body: { title: "", done: "yes" },
        },
      );
      expect(viaApi.status).toBe(400);
      const inFunction = await inA("/create", { title: "", done: "yes" });
      expect(inFunction.error).toEqual({
        name: "AppClientError",
        status: 400,
        code: viaApi.json.error.code,
        message: viaApi.json.error.message,
        field: viaApi.json.error.field ?? null,
      });
      // A bulk is all or none, its failing record named.
      const bulk = await inA("/bulk", [{ title: "fine" }, { title: 42 }]);
      expect(bulk.error).toMatchObject({ status: 400, field: expect.stringMatching(/^records\.1\./) });
      // The data API's body cap.
      expect((await inA("/create", { title: "x".repeat(BODY_CAPS.json) })).error).toMatchObject({
        status: 413,
        message: messages.payloadTooLarge,
      });
      // An entity the app does not have.
      expect((await inA("/list?entity=Nope")).error).toMatchObject({
        status: 404,
        code: "ENTITY_NOT_FOUND",
        message: messages.entityNotFound,
      });
    },
    SLOW,
  );

  it(
    "reaches nothing of another app: its entity, its ids, forged app ids, traversal",
    async () => {
      // B's entity by name: A has none.
      expect((await inA("/list?entity=Secret")).error).toMatchObject({
        status: 404,
        code: "ENTITY_NOT_FOUND",
      });
      expect((await inA(`/get?entity=Secret&id=${bSecret.id}`)).error).toMatchObject({ status: 404 });
      // A Task of B by its id, through A's own Task: not found, unchanged, not deleted.
      expect((await inA(`/get?id=${bTask.id}`)).error).toMatchObject({
        status: 404,
        code: "RECORD_NOT_FOUND",
      });
      expect((await inA(`/update?id=${bTask.id}`, { title: "taken" })).error).toMatchObject({ status: 404 });
      expect((await inA(`/delete?id=${bTask.id}`)).error).toMatchObject({ status: 404 });
      const titles = ok<{ records: Rec[] }>(await inA("/list", { limit: 100 })).records.map((r) => r.title);
      expect(titles).not.toContain("b task");

      // The raw door with paths of its own: B's app id in the path, traversal in entity and id.
      const raw = async (method: string, path: string, body?: unknown) =>
        ok<{ status: number; answer: string }>(
          await inA("/door", { method, path, body: body === undefined ? undefined : JSON.stringify(body) }),
        );
      for (const path of [
        `${b.app.id}/Task`,
        `${b.app.id}/Secret/${bSecret.id}`,
        `../apps/${b.app.id}/data/Secret`,
        `..%2F..%2F${b.app.id}%2FSecret`,
        `Task/..%2F..%2F${b.app.id}%2FSecret%2F${bSecret.id}`,
        `Task/../Secret/${bSecret.id}`,
        `Secret/${bSecret.id}?appId=${b.app.id}`,
        `Task/${bTask.id}/../../Secret/${bSecret.id}`,
        `Task/%2e%2e/Secret`,
      ]) {
        const got = await raw("GET", path);
        expect(got.status, path).toBeGreaterThanOrEqual(400);
        expect(got.status, path).toBeLessThan(500);
        expect(got.answer, path).not.toContain("b only");
        expect(got.answer, path).not.toContain("b task");
      }
      for (const [method, path] of [
        ["PATCH", `Task/${bTask.id}`],
        ["DELETE", `Task/${bTask.id}`],
        ["POST", `${b.app.id}/Task`],
        ["PATCH", `Task/..%2F${bTask.id}`],
      ] as const) {
        expect(
          (await raw(method, path, { title: "taken" })).status,
          `${method} ${path}`,
        ).toBeGreaterThanOrEqual(400);
      }

      // Raw HTTP on its own door: a forged app id in headers and query, no token or a made-up one.
      const rawHttp = (request: string) => inA("/tcp", { request }).then((o) => String(ok<string>(o)));
      const listOfB = `GET /__data/Task?appId=${b.app.id} HTTP/1.1\r\nHost: x\r\nx-app-id: ${b.app.id}\r\nConnection: close\r\n`;
      const forged = await rawHttp(`${listOfB}${DATA_TOKEN_HEADER}: ${"0".repeat(48)}\r\n\r\n`);
      expect(forged).toMatch(/^HTTP\/1\.1 403/);
      expect(await rawHttp(`${listOfB}\r\n`)).toMatch(/^HTTP\/1\.1 403/);
      await bRecordsIntact();
    },
    SLOW,
  );

  it(
    "cannot use another process's door or token: the port is not allowed, a token opens its own door only",
    async () => {
      // B's function tells its door's port (not a secret); A's function cannot even connect to it.
      const bPort = ((await fn(b.app, "/port")) as unknown as { port: number }).port;
      const aPort = ((await inA("/port")) as unknown as { port: number }).port;
      expect(bPort).not.toBe(aPort);
      const tried = await inA("/tcp", { port: bPort, request: "GET /__data/Secret HTTP/1.1\r\n\r\n" });
      expect(tried.error).toMatchObject({ name: "NotCapable" });

      // At the gateway itself: a token works on its own door only, and only for its own app.
      const gateway = await startEgressGateway(
        { dnsServers: [], allowedPrivate: new Set() },
        { data: serveFunctionData },
      );
      try {
        const doorA = await gateway.open(a.app.id);
        const doorB = await gateway.open(b.app.id);
        // A's token on B's door, B's token on A's door: refused.
        expect((await gatewayGet(doorB.port, doorA.token, "/__data/Secret", b.app.id)).status).toBe(403);
        expect((await gatewayGet(doorA.port, doorB.token, "/__data/Task", b.app.id)).status).toBe(403);
        // A's own: A's records only, whatever the request says of B.
        const own = await gatewayGet(doorA.port, doorA.token, `/__data/Task?appId=${b.app.id}`, b.app.id);
        expect(own.status).toBe(200);
        expect(own.body).toContain("alice's");
        expect(own.body).not.toContain("b task");
        expect((await gatewayGet(doorA.port, doorA.token, "/__data/Secret", b.app.id)).status).toBe(404);
        // A closed door (its process ended) takes no more calls.
        doorA.close();
        await expect(gatewayGet(doorA.port, doorA.token, "/__data/Task")).rejects.toThrow();
      } finally {
        await gateway.close();
      }
      await bRecordsIntact();
    },
    SLOW,
  );

  it(
    "has a few data calls in the database at once per process, the others waiting their turn",
    async () => {
      // Forty creates at once from one function: every one is stored.
      const titles = Array.from({ length: 40 }, (_, i) => `parallel ${i}`);
      const made = ok<Rec[]>(await inA("/parallel", titles));
      expect(made.map((r) => r.title).sort()).toEqual([...titles].sort());
      // At the gateway, with a data server that counts: never more than the limit at once.
      let now = 0;
      let most = 0;
      const gateway = await startEgressGateway(
        { dnsServers: [], allowedPrivate: new Set() },
        {
          data: async () => {
            most = Math.max(most, ++now);
            await new Promise((r) => setTimeout(r, 20));
            now--;
            return Response.json({ ok: true });
          },
        },
      );
      try {
        const door = await gateway.open(a.app.id);
        const statuses = await Promise.all(
          Array.from({ length: 30 }, () =>
            gatewayGet(door.port, door.token, "/__data/Task").then((r) => r.status),
          ),
        );
        expect(statuses.every((s) => s === 200)).toBe(true);
        expect(most).toBeGreaterThan(1);
        expect(most).toBeLessThanOrEqual(FUNCTION_DATA_CALLS_AT_ONCE);
      } finally {
        await gateway.close();
      }
    },
    SLOW,
  );

  it(
    "gives a public caller nothing: the gateway's and our headers never reach the function, no app switch",
    async () => {
      const outcome = await inA(`/seen?appId=${b.app.id}`, undefined, {
        "x-function-token": "caller-made",
        [DATA_TOKEN_HEADER]: "caller-made",
        "x-function-url": "http://evil.example/__data/Secret",
        "x-egress-target": "http://127.0.0.1/",
        "x-app-id": b.app.id,
      });
      // The caller's x-function-url would have made the function see another path.
      expect(outcome, "the function answered /seen").toHaveProperty("ok");
      const seen = ok<{ url: string; headers: [string, string][]; titles: string[] }>(outcome);
      const names = seen.headers.map(([name]) => name);
      expect(names.filter((n) => n.startsWith("x-function-"))).toEqual([]);
      expect(new URL(seen.url).hostname).not.toBe("evil.example");
      expect(seen.titles).not.toContain("b task");
      expect(seen.titles).toContain("alice's");
    },
    SLOW,
  );

  it(
    "deploys a function importing @app/client, and still refuses every other import",
    async () => {
      const REFUSED = [
        "npm:stripe",
        "@app/client/x",
        "@app/client?x",
        "@app/clients",
        "./data.ts",
        "/etc/passwd",
      ];
      await say(a.app, a.accountId, {
        user: "functions",
        answer: "Functions.",
        changes: [
          { type: "add_file", path: "functions/data.ts", content: DATA_FUNCTION },
          ...REFUSED.map((spec, i) => ({
            type: "add_file" as const,
            path: `functions/bad${i}.ts`,
            content: `import * as x from ${JSON.stringify(spec)};\nexport default () => new Response(String(x));\n`,
          })),
        ],
      });
      const { results } = await deployAllFunctions(a.app, a.userId);
      const byName = new Map(results.map((r) => [r.name, r]));
      expect(byName.get("data")).toMatchObject({ state: "success" });
      for (const [i, spec] of REFUSED.entries()) {
        expect(byName.get(`bad${i}`), spec).toMatchObject({
          state: "error",
          reason: fillTemplate(messages.functionImportsRefused, { specifier: spec }),
        });
      }
    },
    SLOW,
  );
});
