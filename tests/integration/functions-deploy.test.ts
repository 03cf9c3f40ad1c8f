import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as deployOneRoute from "@/app/api/apps/[appId]/functions/[name]/deploy/route";
import * as publicRoute from "@/app/api/apps/[appId]/functions/[name]/route";
import * as deployAllRoute from "@/app/api/apps/[appId]/functions/deploy/route";
import * as listRoute from "@/app/api/apps/[appId]/functions/route";
import { db, pool } from "@/db/client";
import { reserveFunctionCallAndRead } from "@/db/queries/app-functions";
import { setAppStatus } from "@/db/queries/apps";
import { counter } from "@/db/queries/rate-limits";
import { type App, appFunctions, rateLimits } from "@/db/schema";
import { FUNCTION_CALLS_PER_MINUTE, FUNCTION_REQUEST_BODY_MAX } from "@/lib/constants";
import type {
  FunctionDeployResult,
  FunctionListAnswer,
  FunctionsDeployAnswer,
} from "@/lib/functions/schemas";
import { messages } from "@/lib/messages";
import { deleteSecret, saveSecrets } from "@/lib/secrets/secrets";
import { functionCallSlot } from "@/lib/security/rate-limit";
import { publish } from "../support/app-data";
import { createBuilder, fromIp } from "../support/factories";
import { type Answer, call } from "../support/http";
import { createSpaceApp, say } from "../support/space";

// Deploying a space app's functions (one, all, with their summaries and failures), listing them,
// and calling a published app's deployed function by its public URL (a webhook), with the body cap,
// the per-address limit and hostile names.

const ECHO = `
Deno.serve(async (req) => {
  const key = Deno.env.get("GREETING_KEY");
  return new Response(JSON.stringify({ greeting: key, method: req.method, body: await req.text() }), {
    headers: { "content-type": "application/json" },
  });
});
`;
const SIZE = `export default async (req: Request) => Response.json({ size: (await req.arrayBuffer()).byteLength });\n`;
const PLAIN = `export default () => new Response("plain ok");\n`;
const BROKEN = `Deno.serve((req) => { return new Response("x" ;\n`;
// Its version and its secret (or "none" once the secret is gone: Deno refuses a name it was not given).
const versioned = (version: number) => `
const greeting = () => { try { return Deno.env.get("GREETING_KEY") ?? null; } catch { return "none"; } };
export default () => Response.json({ version: ${version}, greeting: greeting() });
`;
const NEEDS_SECRET = `Deno.serve(() => new Response(Deno.env.get('STRIPE_SECRET_KEY') ?? ""));\n`;

type Files = Record<string, string>;

async function appWith(files: Files, opts: { published?: boolean; secrets?: Record<string, string> } = {}) {
  const b = await createBuilder();
  const app = await createSpaceApp(b.account.accountId);
  await say(app, b.account.accountId, {
    user: "functions",
    answer: "Here are the functions.",
    changes: Object.entries(files).map(([path, content]) => ({ type: "add_file" as const, path, content })),
  });
  if (opts.secrets) {
    await saveSecrets(app, { secrets: Object.entries(opts.secrets).map(([key, value]) => ({ key, value })) });
  }
  if (opts.published) await publish(app);
  return { b, app };
}

const deployOne = (app: App, token: string, name: string) =>
  call<FunctionDeployResult & Answer>(deployOneRoute.POST, {
    method: "POST",
    path: `/api/apps/${app.id}/functions/${encodeURIComponent(name)}/deploy`,
    params: { appId: app.id, name },
    token,
  });

const deployAll = (app: App, token: string) =>
  call<FunctionsDeployAnswer & Answer>(deployAllRoute.POST, {
    method: "POST",
    path: `/api/apps/${app.id}/functions/deploy`,
    params: { appId: app.id },
    token,
  });

const list = (app: App, token: string) =>
  call<FunctionListAnswer & Answer>(listRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/functions`,
    params: { appId: app.id },
    token,
  });

const HANDLERS = {
  GET: publicRoute.GET,
  POST: publicRoute.POST,
  PUT: publicRoute.PUT,
  PATCH: publicRoute.PATCH,
  DELETE: publicRoute.DELETE,
  OPTIONS: publicRoute.OPTIONS,
} as const;

const invoke = (
  appId: string,
  name: string,
  o: { method?: keyof typeof HANDLERS; rawBody?: string; ip?: string } = {},
) =>
  call<Answer>(HANDLERS[o.method ?? "POST"], {
    method: o.method ?? "POST",
    path: `/api/apps/${appId}/functions/${encodeURIComponent(name)}`,
    params: { appId, name },
    rawBody: o.rawBody,
    headers: { "content-type": "text/plain", ...fromIp(o.ip) },
  });

describe("deploying functions", () => {
  it("deploys one function: its URL once published, its state, the code stored for every instance", async () => {
    const { b, app } = await appWith({ "functions/echo.ts": ECHO }, { secrets: { GREETING_KEY: "hello" } });
    const draft = await deployOne(app, b.token, "echo");
    expect(draft.status).toBe(200);
    expect(draft.json).toMatchObject({ name: "echo", state: "success", message: messages.functionDeployed });
    expect(draft.json.functionUrl).toBeNull();

    await publish(app);
    const res = await deployOne({ ...app, status: "active" }, b.token, "echo");
    expect(res.json.functionUrl).toMatch(new RegExp(`/api/apps/${app.id}/functions/echo$`));
    const [row] = await db().select().from(appFunctions).where(eq(appFunctions.appId, app.id));
    expect(row).toMatchObject({
      name: "echo",
      fileName: "echo.ts",
      state: "success",
      code: ECHO,
      deployedBy: b.user.id,
    });
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a function whose code reads secrets the app lacks: missing_secrets with their names and the chat's descriptions", async () => {
    const { b, app } = await appWith({ "functions/pay.ts": NEEDS_SECRET });
    const request = (description: string) => ({
      id: "m:0",
      type: "request_secrets",
      title: "Secrets",
      file: null,
      name: null,
      content: "",
      data: { secrets: [{ secretName: "STRIPE_SECRET_KEY", description }] },
    });
    await say(app, b.account.accountId, { user: "keys", answer: "I need a key.", actions: [request("old")] });
    await say(app, b.account.accountId, {
      user: "keys again",
      answer: "I need a key.",
      actions: [request("Your Stripe secret key")],
    });
    const res = await deployOne(app, b.token, "pay");
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "missing_secrets",
      message: messages.functionMissingSecrets,
    });
    expect(res.json.missingSecrets).toEqual([
      { secretName: "STRIPE_SECRET_KEY", description: "Your Stripe secret key" },
    ]);
    expect(res.json.state).toBe("error");
    const listed = await list(app, b.token);
    expect(listed.json.functions[0]).toMatchObject({ name: "pay", state: "error", deployedAt: null });
  });

  it("a syntax error fails the deploy with the reason, state error, and nothing runs", async () => {
    const { b, app } = await appWith({ "functions/broken.ts": BROKEN }, { published: true });
    const res = await deployOne(app, b.token, "broken");
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "function/deploy-failed",
      message: messages.functionDeployFailed,
    });
    expect(res.json.reason).toMatch(/^The function could not be built: 1:\d+ /);
    expect(res.json.state).toBe("error");
    expect((await invoke(app.id, "broken")).status).toBe(404);
  });

  it("an unknown function: 'Could not determine function name'", async () => {
    const { b, app } = await appWith({ "functions/plain.js": PLAIN, "functions/deploy.ts": PLAIN });
    for (const name of ["nope", "deploy"]) {
      const res = await deployOne(app, b.token, name);
      expect(res.status).toBe(404);
      expect(res.json.error?.message).toBe(messages.functionNameUnknown);
    }
    // functions/deploy.ts is no function: its URL would be the deploy-all route's.
    expect((await list(app, b.token)).json.functions.map((f) => f.name)).toEqual(["plain"]);
  });

  it("deploys all: every summary, and the list shows each function's state and last deploy", async () => {
    const { b, app } = await appWith(
      { "functions/a.ts": PLAIN, "functions/b.js": PLAIN, "functions/c.ts": BROKEN, "pages/Home.jsx": "x" },
      { published: true },
    );
    const before = await list(app, b.token);
    expect(before.status).toBe(200);
    expect(before.json.functions.map((f) => [f.name, f.state, f.url])).toEqual([
      ["a", "pending", null],
      ["b", "pending", null],
      ["c", "pending", null],
    ]);

    const partly = await deployAll(app, b.token);
    expect(partly.status).toBe(200);
    expect(partly.json.message).toBe("Deployed 2 of 3 functions. Check results below.");
    expect(partly.json.results.map((r) => [r.name, r.state])).toEqual([
      ["a", "success"],
      ["b", "success"],
      ["c", "error"],
    ]);
    expect(partly.json.results[2]!.reason).toMatch(/could not be built/);

    const after = await list(app, b.token);
    expect(after.json.published).toBe(true);
    const [a, , c] = after.json.functions;
    expect(a).toMatchObject({
      name: "a",
      path: "functions/a.ts",
      state: "success",
      changedSinceDeploy: false,
    });
    expect(a!.deployedAt).not.toBeNull();
    expect(a!.url).toMatch(new RegExp(`/api/apps/${app.id}/functions/a$`));
    expect(c).toMatchObject({ state: "error", url: null });
    expect(c!.error).toMatch(/could not be built/);

    const ok = await appWith({ "functions/x.ts": PLAIN, "functions/y.ts": PLAIN });
    const all = await deployAll(ok.app, ok.b.token);
    expect(all.json.message).toBe("Successfully redeployed 2 function(s)");
    const unpublished = await list(ok.app, ok.b.token);
    expect(unpublished.json.urlMessage).toBe(messages.functionUnpublished);
    expect(unpublished.json.functions.every((f) => f.url === null)).toBe(true);

    const bad = await appWith({ "functions/x.ts": BROKEN, "functions/y.ts": NEEDS_SECRET });
    const none = await deployAll(bad.app, bad.b.token);
    expect(none.json.message).toBe("Failed to deploy all functions. Check results below.");
    expect(none.json.results[1]).toMatchObject({
      state: "error",
      message: messages.functionMissingSecrets,
      missingSecrets: [{ secretName: "STRIPE_SECRET_KEY", description: "" }],
    });
  });

  it("another builder sees no such app", async () => {
    const { app } = await appWith({ "functions/a.ts": PLAIN });
    const other = await createBuilder();
    expect((await deployOne(app, other.token, "a")).status).toBe(404);
    expect((await deployAll(app, other.token)).status).toBe(404);
    expect((await list(app, other.token)).status).toBe(404);
  });
});

describe("the public function URL", () => {
  it("answers the function's own response with its secret, for any method", async () => {
    const { b, app } = await appWith(
      { "functions/echo.ts": ECHO },
      { published: true, secrets: { GREETING_KEY: "hello from a secret" } },
    );
    expect((await deployOne(app, b.token, "echo")).status).toBe(200);
    const res = await invoke(app.id, "echo", { rawBody: "webhook payload" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ greeting: "hello from a secret", method: "POST", body: "webhook payload" });
    for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
      const r = await invoke(app.id, "echo", { method, rawBody: method === "GET" ? undefined : "x" });
      expect(r.status).toBe(200);
      expect(r.json.method).toBe(method);
    }
  }, 60_000);

  it("an unpublished app says so; an undeployed function is 404", async () => {
    const { b, app } = await appWith({ "functions/echo.ts": PLAIN, "functions/later.ts": PLAIN });
    expect((await deployOne(app, b.token, "echo")).status).toBe(200);
    const res = await invoke(app.id, "echo");
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBe(messages.functionUnpublished);
    await publish(app);
    const undeployed = await invoke(app.id, "later");
    expect(undeployed.status).toBe(404);
    expect(undeployed.json.error?.message).toBe(messages.functionNotDeployed);
    expect((await invoke(crypto.randomUUID(), "echo")).status).toBe(404);
  });

  it("refuses a body over the runtime's cap with 413 before running anything", async () => {
    const { b, app } = await appWith({ "functions/size.ts": SIZE }, { published: true });
    await deployOne(app, b.token, "size");
    const res = await invoke(app.id, "size", { rawBody: "x".repeat(FUNCTION_REQUEST_BODY_MAX + 1) });
    expect(res.status).toBe(413);
    expect(res.json.error?.message).toBe("A function's request body can be at most 1 MB");
    // A body of the cap itself reaches the function whole.
    const whole = await invoke(app.id, "size", { rawBody: "x".repeat(FUNCTION_REQUEST_BODY_MAX) });
    expect(whole.status).toBe(200);
    expect(whole.json).toEqual({ size: FUNCTION_REQUEST_BODY_MAX });
  }, 60_000);

  it("a burst from one address never gets past the limit", async () => {
    const { app } = await appWith({ "functions/a.ts": PLAIN }, { published: true });
    const ip = "10.250.1.7";
    const burst = FUNCTION_CALLS_PER_MINUTE + 30;
    // Undeployed: each call that gets its point is a 404, cheap, so the burst is all about counting.
    const answers = await Promise.all(Array.from({ length: burst }, () => invoke(app.id, "a", { ip })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(FUNCTION_CALLS_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // Another address is not held back.
    expect((await invoke(app.id, "a", { ip: "10.250.1.8" })).status).toBe(404);
  }, 60_000);

  it("sees a redeploy, a changed or deleted secret and an unpublish at the very next call", async () => {
    // This server keeps what it read of the code and the secrets between calls; nothing tells it
    // of a change (another instance may make it): each call's statement says what is current.
    const { b, app } = await appWith(
      { "functions/v.ts": versioned(1) },
      { published: true, secrets: { GREETING_KEY: "one" } },
    );
    expect((await deployOne(app, b.token, "v")).status).toBe(200);
    expect((await invoke(app.id, "v")).json).toEqual({ version: 1, greeting: "one" });
    expect((await invoke(app.id, "v")).json).toEqual({ version: 1, greeting: "one" });
    await say(app, b.account.accountId, {
      user: "v2",
      answer: "Version 2.",
      changes: [{ type: "add_file", path: "functions/v.ts", content: versioned(2) }],
    });
    // Changed files alone change nothing: the deployed code answers until the next deploy.
    expect((await invoke(app.id, "v")).json).toEqual({ version: 1, greeting: "one" });
    expect((await deployOne(app, b.token, "v")).status).toBe(200);
    expect((await invoke(app.id, "v")).json).toEqual({ version: 2, greeting: "one" });
    await saveSecrets(app, { secrets: [{ key: "GREETING_KEY", value: "two" }] });
    expect((await invoke(app.id, "v")).json).toEqual({ version: 2, greeting: "two" });
    await deleteSecret(app, "GREETING_KEY");
    expect((await invoke(app.id, "v")).json).toEqual({ version: 2, greeting: "none" });
    await setAppStatus(app.id, "draft");
    const unpublished = await invoke(app.id, "v");
    expect(unpublished.status).toBe(403);
    expect(unpublished.json.error?.message).toBe(messages.functionUnpublished);
    await publish(app);
    expect((await invoke(app.id, "v")).json).toEqual({ version: 2, greeting: "none" });
  }, 60_000);

  it("a warm call is one statement, which carries neither the code nor the secrets it already has", async () => {
    const { b, app } = await appWith(
      { "functions/v.ts": versioned(1) },
      { published: true, secrets: { GREETING_KEY: "one" } },
    );
    await deployOne(app, b.token, "v");
    const read = (known = { codeHash: "", secretsVersion: "" }) =>
      reserveFunctionCallAndRead(functionCallSlot(app.id, crypto.randomUUID()), app.id, "v", known);
    const first = await read();
    expect(first).toMatchObject({
      allowed: true,
      app: { type: "space", status: "active" },
      deployed: { fileName: "v.ts", code: versioned(1) },
      secrets: { sealed: [{ key: "GREETING_KEY" }] },
    });
    const known = { codeHash: first.deployed!.codeHash!, secretsVersion: first.secrets!.version };
    expect(await read(known)).toMatchObject({ deployed: { code: null }, secrets: { sealed: null } });
    await saveSecrets(app, { secrets: [{ key: "GREETING_KEY", value: "two" }] });
    const changed = await read(known);
    expect(changed).toMatchObject({
      deployed: { code: null },
      secrets: { sealed: [{ key: "GREETING_KEY" }] },
    });
    expect(changed.secrets!.version).not.toBe(known.secretsVersion);

    await invoke(app.id, "v");
    const queries = vi.spyOn(pool(), "query");
    try {
      const warm = await invoke(app.id, "v");
      expect(warm.json).toEqual({ version: 1, greeting: "two" });
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
  }, 60_000);

  it("takes the address's point in the counter every instance shares; a refused call reads nothing", async () => {
    const { b, app } = await appWith({ "functions/a.ts": PLAIN }, { published: true });
    await deployOne(app, b.token, "a");
    const ip = "10.250.2.9";
    // The same row as rate-limiter-flexible's counter of that name: whichever takes a point, both count it.
    const shared = counter("function-ip", FUNCTION_CALLS_PER_MINUTE, 60);
    const slot = functionCallSlot(app.id, ip);
    expect(shared.slot(`${app.id}\n${ip}`)).toEqual(slot);
    for (let i = 0; i < FUNCTION_CALLS_PER_MINUTE - 1; i++)
      expect(await shared.consume(`${app.id}\n${ip}`)).toBe(true);
    expect((await invoke(app.id, "a", { ip })).status).toBe(200);
    expect((await invoke(app.id, "a", { ip })).status).toBe(429);
    expect(await shared.consume(`${app.id}\n${ip}`)).toBe(false);
    const refused = await reserveFunctionCallAndRead(slot, app.id, "a", { codeHash: "", secretsVersion: "" });
    expect(refused).toEqual({ allowed: false, app: null, deployed: null, secrets: null });
    // Once its minute is over the address calls again.
    await db()
      .update(rateLimits)
      .set({ expire: Date.now() - 1 })
      .where(eq(rateLimits.key, slot.rowKey));
    expect((await invoke(app.id, "a", { ip })).status).toBe(200);
  }, 60_000);

  it("hostile names are a 4xx, never a 5xx", async () => {
    const { b, app } = await appWith({ "functions/a.ts": PLAIN }, { published: true });
    for (const name of [
      "a\u0000b",
      "x".repeat(100_000),
      "../../etc/passwd",
      "..",
      "a/b",
      "a.ts",
      "%00",
      "ä",
    ]) {
      const called = await invoke(app.id, name);
      expect(called.status, name.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(called.status, name.slice(0, 20)).toBeLessThan(500);
      const deployed = await deployOne(app, b.token, name);
      expect(deployed.status).toBe(400);
      expect(deployed.json.error?.code).toBe("INVALID_INPUT");
    }
  });
});
