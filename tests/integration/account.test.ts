import { describe, expect, it } from "vitest";
import * as create from "@/app/api/live_api/account/create/route";
import * as current from "@/app/api/live_api/account/current/route";
import { messages } from "@/lib/messages";
import { createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { call } from "../support/http";

describe("account/create and account/current", () => {
  it("creates a builder account once, however often it is called", async () => {
    const { token } = await createBuilder({ withAccount: false });
    const first = await call(create.POST, { path: "/api/live_api/account/create", token });
    const second = await call(create.POST, { path: "/api/live_api/account/create", token });
    expect(first.status).toBe(200);
    expect(second.json.accountId).toBe(first.json.accountId);
    const me = await call(current.GET, { method: "GET", path: "/api/live_api/account/current", token });
    expect(me.json).toMatchObject({
      accountId: first.json.accountId,
      accountType: "builder",
      plan: "lite",
      isAdmin: false,
    });
  });

  it("answers 401 while a sale is not yet paid", async () => {
    const { token } = await createBuilder({ withAccount: false });
    const res = await call(create.POST, { path: "/api/live_api/account/create?sale_id=cs_unpaid", token });
    expect(res.status).toBe(401);
    expect(res.json.error).toEqual({ code: "NOT_YET_READY", message: messages.notYetReady });
  });

  it("gives an end user an account of type other with the app and its header", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId, "Recipe Wizard");
    const { token } = await createEndUser(app.id);
    const me = await call(current.GET, { method: "GET", path: "/api/live_api/account/current", token });
    expect(me.json).toMatchObject({ accountType: "other", appId: app.id, appHeader: "Recipe Wizard" });
  });

  it("refuses anonymous callers with 401", async () => {
    const res = await call(current.GET, { method: "GET", path: "/api/live_api/account/current" });
    expect(res.status).toBe(401);
    expect(res.json.error?.message).toBe(messages.unauthenticated);
  });
});
