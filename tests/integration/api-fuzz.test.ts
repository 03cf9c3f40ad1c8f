import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as openApiRouteModule from "@/app/api/openapi.json/route";
import * as registry from "@/app/api/routes.generated";
import { db } from "@/db/client";
import { accounts } from "@/db/schema";
import { type OpenApiDocument, openApiSources } from "@/lib/api/openapi";
import { PLAN_CATALOGUE, PLAN_IDS } from "@/lib/plans/catalogue";
import { ContractChecker, loadContract, type Request, send } from "../support/api-contract";
import { appTokenFor } from "../support/app-data";
import { tokenFor } from "../support/factories";
import { googleDriveServerEnv, startGoogleDriveServer } from "../support/google-drive-server";
import { gumroadServerEnv, startGumroadServer } from "../support/gumroad-server";
import { createWorld, type HttpMethod, type RequestSpec, rows, type World } from "../support/matrix";
import { notionServerEnv, startNotionServer } from "../support/notion-server";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { catalogueStripePrices, startStripeServer, stripeServerEnv } from "../support/stripe-server";

// A fuzz pass over every operation of the API document (/api/openapi.json): each is called as the
// builder who owns the apps of the matrix world (so the handler's own logic runs, not only the
// 401), with a valid request of the authorization matrix as its base, and then with one thing
// broken at a time: every body property (the document's and the base's, nested ones included),
// every query and path parameter, and the whole body, set to a NUL, lone surrogates, overlong and
// truncated percent escapes, a 1 MB string and values of the wrong type; each required body field
// left out, a body that is not UTF-8, an id of the path that names nothing, and the request sent
// with no credential and by callers who may not make it (another builder, an end user). No answer
// may be a 5xx, and every answer must be one the document declares: its status listed for the
// operation, its body valid against the schema declared for that status (ajv, as the contract
// test checks; tests/support/api-contract.ts). Deterministic (a seeded shuffle), and bounded: each
// operation gets a few seconds at most.
//
// Every outside service is a local server speaking its protocol, so no 503 'not configured' and
// no 502 from a real network hides (or stands for) a fault of ours. lib/env reads once: set first.
const model = await startOpenAiServer({ responder: demoResponder });
const gumroad = await startGumroadServer();
const { prices, env: priceEnv } = catalogueStripePrices(PLAN_CATALOGUE);
const stripe = await startStripeServer({ prices });
const notion = await startNotionServer();
const drive = await startGoogleDriveServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(
  process.env,
  openAiServerEnv(model),
  gumroadServerEnv(gumroad),
  stripeServerEnv(stripe),
  priceEnv,
  notionServerEnv(notion),
  googleDriveServerEnv(drive),
);
afterAll(async () => {
  await Promise.all([model.close(), gumroad.close(), stripe.close(), notion.close(), drive.close()]);
});

/**
 * The time one operation's other cases may take, once its NUL cases (every property and
 * parameter, always run) are done: the whole pass stays within a minute on a busy 2-core machine.
 */
const BUDGET_MS = 350;
const SEED = 0x5eed18;

const HUGE = "x".repeat(1 << 20);
/** Strings that once reached PostgreSQL or Next's decoder: NUL, lone surrogates, broken escapes. */
const STRINGS: unknown[] = [
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "%E0%A4%A",
  "%C0%AF",
  "\u{1F600}",
  "\u202e\uFEFF",
  "../../etc/passwd",
];
const WRONG_TYPES: unknown[] = [
  0,
  -1,
  1e308,
  true,
  null,
  [],
  ["a\u0000"],
  {},
  { a: { b: { c: ["\u0000", { d: null }] } } },
];
const BODIES: unknown[] = [null, [], 42, "a\u0000b", { "\u0000": "\u0000" }, nest(500), HUGE];
/** Query values as written in the URL (already percent-encoded, or deliberately broken). */
const RAW_QUERY_VALUES = ["a%00b", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "%", "%ZZ", "%F0%9F%98%80", "[]"];
const PATH_VALUES = ["a\u0000b", "\ud800", "%E0%A4%A", "\u00c0\u00af", "..", HUGE.slice(0, 100_000)];

function nest(depth: number): unknown {
  let v: unknown = "\u0000";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** A small seeded generator (mulberry32): the same cases in the same order at every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type JsonSchema = Record<string, unknown>;

function resolveRef(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; i < 10 && s && typeof s.$ref === "string"; i++) {
    let node: unknown = doc;
    for (const key of (s.$ref as string).slice(2).split("/")) node = (node as Record<string, unknown>)?.[key];
    s = node as JsonSchema | undefined;
  }
  return s;
}

type Path = (string | number)[];

/** Where a value can go in a body of this schema: its properties, their items, nested, a few levels deep. */
function schemaPaths(doc: OpenApiDocument, schema: JsonSchema | undefined, depth = 0): Path[] {
  const s = resolveRef(doc, schema);
  if (!s || depth > 3) return [];
  const out: Path[] = [];
  for (const alt of [...((s.anyOf as JsonSchema[]) ?? []), ...((s.oneOf as JsonSchema[]) ?? [])]) {
    out.push(...schemaPaths(doc, alt, depth));
  }
  for (const [key, sub] of Object.entries((s.properties as Record<string, JsonSchema>) ?? {})) {
    out.push([key]);
    for (const rest of schemaPaths(doc, sub, depth + 1)) out.push([key, ...rest]);
  }
  if (s.items) for (const rest of schemaPaths(doc, s.items as JsonSchema, depth + 1)) out.push([0, ...rest]);
  if (s.additionalProperties && typeof s.additionalProperties === "object") out.push(["k\u0000ey"]);
  return out;
}

/** Every place of a value in the base body, leaves and branches. */
function valuePaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value))
    return value.flatMap((v, i) => [[...prefix, i], ...valuePaths(v, [...prefix, i])]);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...valuePaths(v, [...prefix, k])]);
  }
  return [];
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root ?? {}) as Record<string | number, unknown>;
  let node = copy;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    node[key] = next && typeof next === "object" ? next : typeof path[i + 1] === "number" ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return copy;
}

type Case = {
  what: string;
  spec: Omit<RequestSpec, "rawBody"> & {
    rawBody?: string | Uint8Array;
    rawQuery?: string;
    /** another caller's token; null: no credential at all */
    token?: string | null;
  };
};

/** `{"a":"` then bytes that are no UTF-8 (a lone continuation byte, an overlong slash), then `"}`. */
const NOT_UTF8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0xc0, 0xaf, 0xff, 0x22, 0x7d]);

/** The NUL case of every property and parameter, and the rest in a seeded order. */
function casesOf(doc: OpenApiDocument, op: Operation, base: RequestSpec, next: () => number) {
  const first: Case[] = [];
  const rest: Case[] = [];
  const url = new URL(base.path, "http://localhost");
  const jsonBody = op.requestBody?.content?.["application/json"];
  const rawBody = op.requestBody && !jsonBody;

  if (jsonBody || base.body !== undefined) {
    const seen = new Set<string>();
    const paths = [...valuePaths(base.body), ...schemaPaths(doc, jsonBody?.schema)].filter((p) => {
      const key = JSON.stringify(p);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    for (const p of paths) {
      const where = `body.${p.join(".")}`;
      first.push({ what: `${where} = NUL`, spec: { ...base, body: setAt(base.body, p, "a\u0000b") } });
      for (const v of [...STRINGS.slice(1), ...WRONG_TYPES]) {
        rest.push({ what: `${where} = ${show(v)}`, spec: { ...base, body: setAt(base.body, p, v) } });
      }
      rest.push({ what: `${where} = 1 MB`, spec: { ...base, body: setAt(base.body, p, HUGE) } });
    }
    for (const b of BODIES) rest.push({ what: `body = ${show(b)}`, spec: { ...base, body: b } });
    // Each required field of the body left out, once.
    const root = resolveRef(doc, jsonBody?.schema);
    const body = base.body && typeof base.body === "object" ? (base.body as Record<string, unknown>) : {};
    for (const name of (root?.required as string[] | undefined) ?? []) {
      const { [name]: _left, ...without } = body;
      first.push({ what: `body without ${name}`, spec: { ...base, body: without } });
    }
    first.push({ what: "body = not UTF-8", spec: { ...base, body: undefined, rawBody: NOT_UTF8 } });
    rest.push({ what: "body = broken JSON", spec: { ...base, body: undefined, rawBody: '{"a":"\\ud800' } });
  }
  if (rawBody) {
    for (const raw of ["\u0000\u0000\u0000", "\ud800\udc00\ud800", HUGE, ""]) {
      rest.push({ what: `raw body = ${show(raw)}`, spec: { ...base, body: undefined, rawBody: raw } });
    }
  }

  const queryNames = new Set([
    ...url.searchParams.keys(),
    ...(op.parameters ?? []).filter((x) => x.in === "query").map((x) => x.name),
  ]);
  for (const name of queryNames) {
    const others = [...url.searchParams].filter(([k]) => k !== name);
    const query = (value: string) =>
      [
        ...others.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
        `${name}=${value}`,
      ].join("&");
    first.push({ what: `?${name}=a%00b`, spec: { ...base, rawQuery: query("a%00b") } });
    for (const v of RAW_QUERY_VALUES.slice(1)) {
      rest.push({ what: `?${name}=${v}`, spec: { ...base, rawQuery: query(v) } });
    }
    rest.push({ what: `?${name}= 1 MB`, spec: { ...base, rawQuery: query(HUGE) } });
  }

  for (const [name, value] of Object.entries(base.params ?? {})) {
    // An id of the right shape that names nothing, always tried.
    const schema = op.parameters?.find((x) => x.in === "path" && x.name === name)?.schema;
    if (schema?.format === "uuid") {
      const params = { ...base.params, [name]: "00000000-0000-4000-8000-000000000000" };
      first.push({ what: `{${name}} names nothing`, spec: { ...base, params } });
    }
    const values: (string | string[])[] = Array.isArray(value)
      ? [["a\u0000b"], ["\ud800"], [], ["%C0%AF", ".."]]
      : PATH_VALUES;
    values.forEach((v, i) => {
      const c = { what: `{${name}} = ${show(v)}`, spec: { ...base, params: { ...base.params, [name]: v } } };
      (i === 0 ? first : rest).push(c);
    });
  }
  // The request as it is, from callers who may not make it: no credential, another builder, an end user.
  for (const [who, token] of Object.entries(outsiders)) {
    first.push({ what: `as ${who}`, spec: { ...base, token } });
  }
  return { first, rest: shuffled(rest, next) };
}

/** Callers other than the owner of the world's apps (set once the world exists). */
const outsiders: Record<string, string | null> = { "nobody (no credential)": null };

function show(v: unknown): string {
  const s = typeof v === "string" && v.length > 1000 ? `"x" * ${v.length}` : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 60)}...` : s;
}

type Operation = {
  parameters?: { name: string; in: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

const { doc, operations: refs } = await loadContract();
const checker = new ContractChecker(doc);
const sources = openApiSources(registry, openApiRouteModule);
const operations = refs.map((ref) => ({
  ref,
  path: ref.path,
  method: ref.method as HttpMethod,
  op: ref.op as Operation,
  source: sources.find((s) => s.path === ref.path)!,
}));

describe("fuzz pass over every operation of /api/openapi.json", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
    // The top plan: no handler stops at "your plan cannot" before it has read the input.
    await db()
      .update(accounts)
      .set({ plan: PLAN_IDS.at(-1)! })
      .where(eq(accounts.accountId, world.actors.builderA.account.accountId));
    outsiders["another builder"] = world.actors.builderB.token;
    outsiders["an end user of another app"] = world.actors.endUserB.token;
  });

  it("has operations to call, each with a request of the authorization matrix to start from", () => {
    expect(operations.length).toBeGreaterThan(50);
    const missing = operations.filter(
      (o) => !rows.some((r) => r.file === o.source.file && r.method === o.method),
    );
    expect(missing.map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    "%s answers no 5xx to broken input",
    async (_name, { ref, method, op, source }) => {
      const row = rows.find((r) => r.file === source.file && r.method === method)!;
      const builder = world.actors.builderA;
      const base = row.request(world, "builderA");
      // A route of a space app's own code takes the app token builder A's session gets for the app
      // (its admin), so its handler reads the input: a session's own token is refused first.
      const credential = row.appToken
        ? await appTokenFor(base.params?.appId as string, builder.token)
        : builder.token;
      const { first, rest } = casesOf(doc, op, base, random(SEED));
      const failures: string[] = [];
      let started = Date.now();
      let ran = 0;
      for (const c of [...first, ...rest]) {
        if (ran === first.length) started = Date.now();
        if (ran >= first.length && Date.now() - started > BUDGET_MS) break;
        ran++;
        const path =
          c.spec.rawQuery === undefined ? c.spec.path : `${c.spec.path.split("?")[0]}?${c.spec.rawQuery}`;
        const r: Request = {
          params: c.spec.params,
          headers: c.spec.headers,
          token: c.spec.token === null ? undefined : (c.spec.token ?? credential),
        };
        if (c.spec.rawBody !== undefined) r.bytes = c.spec.rawBody;
        else if (c.spec.body !== undefined) r.body = c.spec.body;
        try {
          const res = await send(ref, r, path);
          if (res.status >= 500) failures.push(`${c.what}: ${res.status} ${res.text.slice(0, 200)}`);
          else for (const p of checker.problems(ref, res)) failures.push(`${c.what}: ${p.slice(0, 400)}`);
        } catch (err) {
          failures.push(`${c.what}: threw ${(err as Error).message?.slice(0, 200)}`);
        }
      }
      // A case may have ended the builder's sessions (sign out everywhere, a new password).
      builder.token = await tokenFor(builder.user);
      expect(failures, `${ran} of ${first.length + rest.length} cases run`).toEqual([]);
    },
  );
});
