import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as secretRoute from "@/app/api/apps/[appId]/secrets/[key]/route";
import * as secretsRoute from "@/app/api/apps/[appId]/secrets/route";
import { db } from "@/db/client";
import { type App, appSecrets } from "@/db/schema";
import { SECRET_MASK, SECRET_VALUE_MAX, SECRETS_PER_APP_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { buildKeyring, openSecret, sealSecret } from "@/lib/secrets/crypto";
import { resealSecrets } from "@/lib/secrets/rotate";
import type { SecretList } from "@/lib/secrets/schemas";
import { readSecretValues } from "@/lib/secrets/secrets";
import { createBuilder, createPublishedApp } from "../support/factories";
import { type Answer, call } from "../support/http";
import { createSpaceApp } from "../support/space";

// A space app's secrets through their routes: saved sealed, listed masked, deleted by key, by
// the app's builder (and admins) only; hostile input is a 4xx; a saved value never comes back in
// an answer, an error or the log.

async function spaceApp() {
  const b = await createBuilder();
  return { b, app: await createSpaceApp(b.account.accountId) };
}

const list = (app: App, token: string) =>
  call<SecretList & Answer>(secretsRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/secrets`,
    params: { appId: app.id },
    token,
  });

const save = (app: App, token: string, body: unknown, rawBody?: string) =>
  call<SecretList & Answer>(secretsRoute.POST, {
    method: "POST",
    path: `/api/apps/${app.id}/secrets`,
    params: { appId: app.id },
    token,
    ...(rawBody === undefined ? { body } : { rawBody, headers: { "content-type": "application/json" } }),
  });

const remove = (app: App, token: string, key: string) =>
  call<Answer>(secretRoute.DELETE, {
    method: "DELETE",
    path: `/api/apps/${app.id}/secrets/${encodeURIComponent(key)}`,
    params: { appId: app.id, key },
    token,
  });

describe("secrets routes", () => {
  it("save, list masked, replace, delete", async () => {
    const { b, app } = await spaceApp();
    expect((await list(app, b.token)).json).toEqual({ secrets: [] });

    const saved = await save(app, b.token, {
      secrets: [
        { key: "STRIPE_KEY", value: "sk_test_1", instructions: "From the Stripe dashboard" },
        { key: "mail_token", value: "mt-1" },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.json.secrets.map((s) => [s.key, s.value, s.instructions])).toEqual([
      ["STRIPE_KEY", SECRET_MASK, "From the Stripe dashboard"],
      ["mail_token", SECRET_MASK, null],
    ]);
    expect(await readSecretValues(app.id)).toEqual({ STRIPE_KEY: "sk_test_1", mail_token: "mt-1" });

    // A key already there gets the new value and keeps its instructions when none are sent.
    const replaced = await save(app, b.token, { secrets: [{ key: "STRIPE_KEY", value: "sk_test_2" }] });
    expect(replaced.json.secrets.find((s) => s.key === "STRIPE_KEY")?.instructions).toBe(
      "From the Stripe dashboard",
    );
    expect((await readSecretValues(app.id)).STRIPE_KEY).toBe("sk_test_2");

    expect((await remove(app, b.token, "STRIPE_KEY")).json).toEqual({ deleted: true });
    expect((await list(app, b.token)).json.secrets.map((s) => s.key)).toEqual(["mail_token"]);
    const again = await remove(app, b.token, "STRIPE_KEY");
    expect(again.status).toBe(404);
    expect(again.json.error?.message).toBe(messages.secretNotFound);
  });

  it("stores the value sealed, with the key's id beside it", async () => {
    const { b, app } = await spaceApp();
    await save(app, b.token, { secrets: [{ key: "K", value: "plain-value-in-clear" }] });
    const [row] = await db().select().from(appSecrets).where(eq(appSecrets.appId, app.id));
    expect(row!.sealedValue).not.toContain("plain-value-in-clear");
    expect(row!.keyId).toMatch(/^[0-9a-f]{16}$/);
    const dump = await db().execute(sql`select * from app_secrets where app_id = ${app.id}`);
    expect(JSON.stringify(dump)).not.toContain("plain-value-in-clear");
  });

  it("is the builder's of the app (and admins'): another builder sees no such app", async () => {
    const { b, app } = await spaceApp();
    const other = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    await save(app, b.token, { secrets: [{ key: "K", value: "v" }] });
    expect((await list(app, other.token)).status).toBe(404);
    expect((await save(app, other.token, { secrets: [{ key: "X", value: "v" }] })).status).toBe(404);
    expect((await remove(app, other.token, "K")).status).toBe(404);
    expect((await list(app, admin.token)).json.secrets.map((s) => s.key)).toEqual(["K"]);
    expect(Object.keys(await readSecretValues(app.id))).toEqual(["K"]);
  });

  it("belongs to space apps only", async () => {
    const b = await createBuilder();
    const tool = await createPublishedApp(b.account.accountId);
    const res = await list(tool, b.token);
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe(messages.spaceNotSpaceApp);
  });

  it("answers hostile or broken input with a 4xx", async () => {
    const { b, app } = await spaceApp();
    const bad: unknown[] = [
      {},
      { secrets: [] },
      { secrets: "K=v" },
      { secrets: [{ key: "K" }] },
      { secrets: [{ key: "K", value: "" }] },
      { secrets: [{ key: "", value: "v" }] },
      { secrets: [{ key: "1ABC", value: "v" }] },
      { secrets: [{ key: "A-B", value: "v" }] },
      { secrets: [{ key: "A B", value: "v" }] },
      { secrets: [{ key: "K\u0000", value: "v" }] },
      { secrets: [{ key: "K", value: "v\u0000alue" }] },
      { secrets: [{ key: "K", value: "\ud800" }] },
      { secrets: [{ key: "K", value: "v", instructions: "x".repeat(5000) }] },
      { secrets: [{ key: "K".repeat(200), value: "v" }] },
      { secrets: [{ key: "K", value: "v".repeat(SECRET_VALUE_MAX + 1) }] },
      { secrets: [{ key: "K", value: 42 }] },
      {
        secrets: [
          { key: "K", value: "a" },
          { key: "K", value: "b" },
        ],
      },
      { secrets: Array.from({ length: SECRETS_PER_APP_MAX + 1 }, (_, i) => ({ key: `K${i}`, value: "v" })) },
    ];
    for (const body of bad) {
      const res = await save(app, b.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await save(app, b.token, undefined, "{broken")).status).toBe(400);
    expect((await save(app, b.token, undefined, "x".repeat(2_000_000))).status).toBe(413);
    expect((await remove(app, b.token, "A-B")).status).toBe(400);
    expect((await remove(app, b.token, "K".repeat(500))).status).toBe(400);
    expect((await list(app, b.token)).json.secrets).toEqual([]);
  });

  it("holds at most the app's cap of secrets, counting the keys already there", async () => {
    const { b, app } = await spaceApp();
    const batch = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `K${from + i}`, value: "v" }));
    expect((await save(app, b.token, { secrets: batch(0, SECRETS_PER_APP_MAX - 1) })).status).toBe(200);
    // Replacing keys already there adds none.
    expect((await save(app, b.token, { secrets: batch(0, 5) })).status).toBe(200);
    const over = await save(app, b.token, { secrets: batch(SECRETS_PER_APP_MAX, 2) });
    expect(over.status).toBe(400);
    expect(over.json.error?.code).toBe("SECRETS_TOO_MANY");
    expect((await save(app, b.token, { secrets: batch(SECRETS_PER_APP_MAX, 1) })).status).toBe(200);
    expect((await list(app, b.token)).json.secrets).toHaveLength(SECRETS_PER_APP_MAX);
  });

  it("reads only its own app's values", async () => {
    const one = await spaceApp();
    const two = await spaceApp();
    await save(one.app, one.b.token, { secrets: [{ key: "SHARED_NAME", value: "one's" }] });
    await save(two.app, two.b.token, { secrets: [{ key: "SHARED_NAME", value: "two's" }] });
    expect(await readSecretValues(one.app.id)).toEqual({ SHARED_NAME: "one's" });
    expect(await readSecretValues(two.app.id)).toEqual({ SHARED_NAME: "two's" });
    // A sealed value copied into the other app's row does not open there.
    const [row] = await db().select().from(appSecrets).where(eq(appSecrets.appId, one.app.id));
    await db()
      .update(appSecrets)
      .set({ sealedValue: row!.sealedValue, keyId: row!.keyId })
      .where(eq(appSecrets.appId, two.app.id));
    expect(await readSecretValues(two.app.id)).toEqual({});
  });
});

describe("a saved value never shows", () => {
  const lines: string[] = [];
  const level = process.env.LOG_LEVEL;
  beforeEach(() => {
    lines.length = 0;
    process.env.LOG_LEVEL = "debug";
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      });
    }
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.env.LOG_LEVEL = level;
  });

  it("in any answer, error or log line (a canary)", async () => {
    const { b, app } = await spaceApp();
    const canary = `canary-${crypto.randomUUID()}`;
    const answers: unknown[] = [];
    const keep = async (p: Promise<{ status: number; json: unknown }>) => {
      const res = await p;
      answers.push(res.status, res.json);
      return res;
    };
    await keep(save(app, b.token, { secrets: [{ key: "CANARY", value: canary, instructions: "kept" }] }));
    await keep(list(app, b.token));
    await keep(save(app, b.token, { secrets: [{ key: "CANARY", value: canary }] }));
    // Refused saves that carry the value: a bad key beside it, a duplicate, NUL, the cap.
    await keep(save(app, b.token, { secrets: [{ key: "BAD-KEY", value: canary }] }));
    await keep(
      save(app, b.token, {
        secrets: [
          { key: "CANARY", value: canary },
          { key: "CANARY", value: canary },
        ],
      }),
    );
    await keep(save(app, b.token, { secrets: [{ key: "CANARY", value: `${canary}\u0000` }] }));
    await keep(save(app, b.token, undefined, `{"secrets":[{"key":"CANARY","value":"${canary}"`));
    await keep(save(app, b.token, { secrets: [{ key: "CANARY", value: canary.repeat(500) }] }));
    await keep(remove(app, b.token, "CANARY"));
    const everything = JSON.stringify(answers) + lines.join("\n");
    expect(answers.filter((a) => typeof a === "number")).toEqual([
      200, 200, 200, 400, 400, 400, 400, 400, 200,
    ]);
    expect(everything).not.toContain(canary);
    expect(everything).not.toContain(canary.slice(-12));
  });
});

describe("key rotation", () => {
  it("reseals values sealed under an earlier key under the current one", async () => {
    const { b, app } = await spaceApp();
    await save(app, b.token, { secrets: [{ key: "K", value: "rotated value" }] });
    const oldKey = Buffer.alloc(32, 7).toString("hex");
    const before = buildKeyring({ secretsKey: oldKey, authSecret: process.env.AUTH_SECRET! });
    // A value sealed under the earlier key, as a server configured with it would have stored it.
    await db()
      .update(appSecrets)
      .set(sealSecret(app.id, "K", "old value", before))
      .where(eq(appSecrets.appId, app.id));
    const ring = buildKeyring({ previousKeys: oldKey, authSecret: process.env.AUTH_SECRET! });
    const { resealed, unreadable } = await resealSecrets(ring);
    expect(resealed).toBeGreaterThanOrEqual(1);
    expect(unreadable).toBe(0);
    const [row] = await db().select().from(appSecrets).where(eq(appSecrets.appId, app.id));
    expect(row!.keyId).toBe(ring.current.id);
    expect(openSecret(app.id, "K", row!, ring)).toBe("old value");
  });
});
