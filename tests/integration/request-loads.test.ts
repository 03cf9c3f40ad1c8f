import { describe, expect, it } from "vitest";
import * as appRoute from "@/app/api/apps/[appId]/route";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import * as ingestTextRoute from "@/app/api/context/ingest/text/route";
import * as itemsRoute from "@/app/api/context/items/route";
import { insertApp } from "@/db/queries/apps";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { PNG } from "../support/images";
import { statementsOf } from "../support/sql-log";
import { send, upload } from "../support/uploads-client";

// A request reads the caller's account with their session, and the app it edits with its owner's
// plan, each in one statement (lib/api/route.ts); services take the plan as an argument. Counted
// here from what PostgreSQL is really sent: a service that looked the plan up again (the file
// upload once did five times) reads the accounts table once more.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const readsAccounts = (statements: string[]) => statements.filter((s) => s.includes('"accounts"'));

/** The statements of one request that read an account: the session's, then the app's with its owner's plan. */
async function accountReadsOf(request: () => Promise<{ status: number }>, status = 200) {
  let answered = 0;
  const statements = await statementsOf(async () => {
    answered = (await request()).status;
  });
  expect(answered).toBe(status);
  // Named by the table each statement reads from (a lookup of the plan alone reads "accounts").
  return readsAccounts(statements).map((s) => s.match(/ from "(\w+)"/)?.[1] ?? s);
}

const csv = new TextEncoder().encode("name,price\nTea,3\n");

const requests = (b: Builder, appId: string) => ({
  "a data file upload": () =>
    send(ingestFileRoute.POST, {
      method: "POST",
      path: `/api/context/ingest/file?appId=${appId}&name=menu.csv`,
      params: {},
      token: b.token,
      body: csv,
    }),
  "a pasted text": () =>
    call(ingestTextRoute.POST, {
      path: `/api/context/ingest/text?appId=${appId}`,
      token: b.token,
      body: { context: "Opening hours: 9 to 5." },
    }),
  "the data sources list": () =>
    call(itemsRoute.GET, { method: "GET", path: `/api/context/items?appId=${appId}`, token: b.token }),
  "an image upload": () => upload(appId, b.token, PNG),
  "the editor's app": () =>
    call(appRoute.GET, { method: "GET", path: `/api/apps/${appId}`, params: { appId }, token: b.token }),
});

describe("a request loads its account and the owner's plan once", () => {
  it("the owner: their session, then the app with their plan; nothing else reads an account", async () => {
    const owner = await createBuilder({ plan: "explorer" });
    const app = await insertApp({ ownerAccountId: owner.account.accountId, header: "Loads app" });
    for (const [name, request] of Object.entries(requests(owner, app.id))) {
      expect(await accountReadsOf(request), name).toEqual(["sessions", "apps"]);
    }
  });

  it("an admin on someone's app: the same two statements, and the limits are the owner's plan's", async () => {
    const owner = await createBuilder({ plan: "lite" });
    const admin = await createBuilder({ isAdmin: true, plan: "agency" });
    const app = await insertApp({ ownerAccountId: owner.account.accountId, header: "Owner's app" });
    const { "a pasted text": paste } = requests(admin, app.id);
    expect(await accountReadsOf(paste)).toEqual(["sessions", "apps"]);
    // The owner's free plan holds one data item, whatever the admin's own plan allows.
    expect(await accountReadsOf(paste, 403)).toEqual(["sessions", "apps"]);
    const list = await call<{ hasReachedDataLimit: boolean }>(itemsRoute.GET, {
      method: "GET",
      path: `/api/context/items?appId=${app.id}`,
      token: admin.token,
    });
    expect(list.json.hasReachedDataLimit).toBe(true);
  });
});
