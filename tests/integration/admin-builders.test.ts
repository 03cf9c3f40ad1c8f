import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as one from "@/app/api/admin/builders/[accountId]/route";
import * as list from "@/app/api/admin/builders/route";
import { db } from "@/db/client";
import { accounts } from "@/db/schema";
import { AdminBuildersAnswer } from "@/lib/accounts/admin-schemas";
import { messages } from "@/lib/messages";
import { createBuilder, uniqueEmail } from "../support/factories";
import { call } from "../support/http";

// Without payments an operator moves builders between plans and sets who is an admin: through
// the admin-only routes of the admin page, or `npm run admin` on the server.

const accountOf = async (accountId: string) =>
  (await db().select().from(accounts).where(eq(accounts.accountId, accountId)))[0]!;

const patch = (accountId: string, body: unknown, auth: { token?: string } = {}) =>
  call(one.PATCH, {
    method: "PATCH",
    path: `/api/admin/builders/${accountId}`,
    params: { accountId },
    body,
    ...auth,
  });

describe("/api/admin/builders", () => {
  it("an admin lists builders by email search and sets a plan and the admin flag", async () => {
    const admin = await createBuilder({ isAdmin: true });
    const mark = `adm-${crypto.randomUUID().slice(0, 6)}`;
    const target = await createBuilder({ email: uniqueEmail(mark) });
    const other = await createBuilder();

    const found = await call(list.GET, {
      method: "GET",
      path: `/api/admin/builders?q=${mark.toUpperCase()}`,
      token: admin.token,
    });
    expect(found.status).toBe(200);
    const { builders } = AdminBuildersAnswer.parse(found.json);
    expect(builders.map((b) => b.email)).toEqual([target.user.email]);
    expect(builders[0]).toMatchObject({ accountId: target.account.accountId, plan: "lite", isAdmin: false });

    const changed = await patch(target.account.accountId, { plan: "moon", isAdmin: true }, admin);
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ email: target.user.email, plan: "moon", isAdmin: true });
    expect(await accountOf(target.account.accountId)).toMatchObject({ plan: "moon", isAdmin: true });
    expect(await accountOf(other.account.accountId)).toMatchObject({ plan: "lite", isAdmin: false });

    // A LIKE pattern in the search is text: '%' matches only a '%'.
    const pattern = await call(list.GET, {
      method: "GET",
      path: "/api/admin/builders?q=%25",
      token: admin.token,
    });
    expect(AdminBuildersAnswer.parse(pattern.json).builders).toEqual([]);
  });

  it("a builder who is not an admin gets 403, nobody signed in 401; nothing changes", async () => {
    const builder = await createBuilder({ plan: "lite" });
    expect(
      (await call(list.GET, { method: "GET", path: "/api/admin/builders", token: builder.token })).status,
    ).toBe(403);
    expect((await call(list.GET, { method: "GET", path: "/api/admin/builders" })).status).toBe(401);
    const self = await patch(builder.account.accountId, { plan: "agency", isAdmin: true }, builder);
    expect(self.status).toBe(403);
    expect((await patch(builder.account.accountId, { plan: "agency" })).status).toBe(401);
    expect(await accountOf(builder.account.accountId)).toMatchObject({ plan: "lite", isAdmin: false });
  });

  it("a plan that does not exist, an empty change or a NUL in the search is 400", async () => {
    const admin = await createBuilder({ isAdmin: true });
    const target = await createBuilder();
    const bad = await patch(target.account.accountId, { plan: "platinum" }, admin);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain(messages.adminUnknownPlan);
    expect((await patch(target.account.accountId, {}, admin)).status).toBe(400);
    expect((await patch(target.account.accountId, { isAdmin: "yes" }, admin)).status).toBe(400);
    const nul = await call(list.GET, {
      method: "GET",
      path: "/api/admin/builders?q=a%00b",
      token: admin.token,
    });
    expect(nul.status).toBe(400);
    expect((await patch(crypto.randomUUID(), { plan: "moon" }, admin)).status).toBe(404);
    expect(await accountOf(target.account.accountId)).toMatchObject({ plan: "lite" });
  });

  it("an admin cannot remove their own admin rights (no lock-out), but may change their plan", async () => {
    const admin = await createBuilder({ isAdmin: true });
    const demote = await patch(admin.account.accountId, { isAdmin: false }, admin);
    expect(demote.status).toBe(400);
    expect((demote.json as { error: { message: string } }).error.message).toBe(
      messages.adminCannotDemoteSelf,
    );
    expect((await patch(admin.account.accountId, { plan: "agency" }, admin)).status).toBe(200);
    expect(await accountOf(admin.account.accountId)).toMatchObject({ plan: "agency", isAdmin: true });
  });
});

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `npm run admin -- ...args` against this test's database. */
function admin(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "scripts/admin.ts", ...args],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
    });
    child.stderr.on("data", (d) => {
      out += String(d);
    });
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe("npm run admin", { timeout: 120_000 }, () => {
  it("set-plan, set-admin and list change and show a builder found by email", async () => {
    const target = await createBuilder({ email: uniqueEmail("cmd") });
    const email = target.user.email.toUpperCase();
    const setPlan = await admin("set-plan", email, "monetizer", "--admin", "true");
    expect(setPlan.out).toContain(`plan=monetizer`);
    expect(setPlan.code).toBe(0);
    expect(await accountOf(target.account.accountId)).toMatchObject({ plan: "monetizer", isAdmin: true });

    const setAdmin = await admin("set-admin", target.user.email, "false");
    expect(setAdmin.code).toBe(0);
    expect(await accountOf(target.account.accountId)).toMatchObject({ plan: "monetizer", isAdmin: false });

    const listed = await admin("list", target.user.email);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`${target.user.email}  plan=monetizer  admin=false`);
  });

  it("refuses an unknown plan, an unknown email and a bad flag, changing nothing", async () => {
    const target = await createBuilder();
    const badPlan = await admin("set-plan", target.user.email, "platinum");
    expect(badPlan.code).toBe(2);
    expect(badPlan.out).toContain(messages.adminUnknownPlan);
    const nobody = await admin("set-plan", uniqueEmail("nobody"), "moon");
    expect(nobody.code).toBe(1);
    expect(nobody.out).toContain(messages.adminBuilderNotFound);
    const badFlag = await admin("set-admin", target.user.email, "yes");
    expect(badFlag.code).toBe(2);
    expect(await accountOf(target.account.accountId)).toMatchObject({ plan: "lite", isAdmin: false });
  });
});
