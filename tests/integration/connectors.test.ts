import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import * as syncRoute from "@/app/api/context/[id]/sync/route";
import * as metadataRoute from "@/app/api/context/ingest/metadata/route";
import * as authorize from "@/app/api/integrations/[provider]/authorize/route";
import * as filesRoute from "@/app/api/integrations/[provider]/files/route";
import * as disconnectRoute from "@/app/api/integrations/[provider]/route";
import * as fetchTokens from "@/app/api/integrations/fetchCarbonTokens/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { insertContextItem } from "@/db/queries/context";
import { listContextChunks, listContextRows } from "@/db/queries/context-content";
import { findConnection } from "@/db/queries/integrations";
import { contextItems, integrationConnections } from "@/db/schema";
import { retrieveChunks } from "@/lib/context/retrieve";
import { openToken } from "@/lib/integrations/token-crypto";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import {
  callPage,
  connectProvider,
  consent,
  fetchConnectorTokens,
  returnTo,
} from "../support/connector-flow";
import { createBuilder } from "../support/factories";
import {
  type GoogleDriveServer,
  googleDriveServerEnv,
  startGoogleDriveServer,
} from "../support/google-drive-server";
import { call } from "../support/http";
import { type NotionServer, notionServerEnv, startNotionServer } from "../support/notion-server";

// Notion and Google Drive through their real HTTP APIs: the production client code talks to
// local servers that speak those APIs (tests/support/notion-server.ts, google-drive-server.ts),
// from the OAuth consent through the ingestion job. lib/env reads the environment once, so it is
// set here, before any request.
const notion: NotionServer = await startNotionServer();
const drive: GoogleDriveServer = await startGoogleDriveServer();
Object.assign(process.env, notionServerEnv(notion), googleDriveServerEnv(drive));
afterAll(async () => {
  await notion.close();
  await drive.close();
});
afterEach(() => {
  vi.useRealTimers();
});

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Answer = { error?: { code: string; message: string }; [key: string]: unknown };

const newApp = (b: Builder) => insertApp({ ownerAccountId: b.account.accountId, header: "Connectors app" });
const itemOf = async (id: string) =>
  (await db().select().from(contextItems).where(eq(contextItems.id, id)))[0]!;

function ingest(b: Builder, appId: string, items: unknown[], query = "") {
  return call<{ contextItemIds: string[] } & Answer>(metadataRoute.POST, {
    path: `/api/context/ingest/metadata?appId=${appId}${query}`,
    token: b.token,
    body: { contextItems: items },
  });
}

function listFiles(b: Builder, appId: string, provider: string, q = "") {
  return call<
    { files: { externalFileId: string; name: string; type: string; externalFileUrl: string }[] } & Answer
  >(filesRoute.GET, {
    method: "GET",
    path: `/api/integrations/${provider}/files?appId=${appId}${q ? `&q=${encodeURIComponent(q)}` : ""}`,
    token: b.token,
    params: { provider },
  });
}

const sync = (b: Builder, id: string) =>
  call<Answer>(syncRoute.POST, { path: `/api/context/${id}/sync`, token: b.token, params: { id } });

const notionPage = () => ({
  source: "notion",
  externalFileId: notion.fixtures.pageId,
  name: "Onboarding Guide",
  type: "notion page",
  externalFileUrl: "https://www.notion.so/Onboarding-Guide",
});
const driveFile = (externalFileId: string, name: string, type: string) => ({
  source: "google drive",
  externalFileId,
  name,
  type,
});
const chunkText = async (id: string) => (await listContextChunks(id)).map((c) => c.text).join("\n");

/** A paid builder with an app, connected to the provider. */
async function connected(provider: "notion" | "google-drive", plan = "explorer") {
  const b = await createBuilder({ plan });
  const app = await newApp(b);
  await connectProvider(b, app.id, provider);
  return { b, app };
}

describe("the connector token (GET /api/integrations/fetchCarbonTokens)", () => {
  it("answers a short-lived token, the plan's limits and each connector's state", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const t = await fetchConnectorTokens(b, app.id);
    expect(t.accessToken.split(".")).toHaveLength(3);
    const ttl = new Date(t.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(t.maxFiles).toBe(5);
    expect(t.webScraper).toEqual({ maxDepth: 3, maxPages: 50 });
    expect(t.connectors).toEqual({
      notion: { configured: true, missingEnv: [], connected: false, accountName: null },
      "google-drive": { configured: true, missingEnv: [], connected: false, accountName: null },
    });
  });

  it("is refused for another builder's app (404)", async () => {
    const owner = await createBuilder();
    const other = await createBuilder();
    const app = await newApp(owner);
    const res = await call(fetchTokens.GET, {
      method: "GET",
      path: `/api/integrations/fetchCarbonTokens?appId=${app.id}`,
      token: other.token,
    });
    expect(res.status).toBe(404);
  });
});

describe("connecting (authorize, the provider's consent, callback)", () => {
  it("Notion: the round trip stores the workspace's token, encrypted, and the dialog is told", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const { accessToken } = await fetchConnectorTokens(b, app.id);
    const back = await consent(b, "notion", accessToken);
    expect(`${back.origin}${back.pathname}`).toBe("http://localhost:3000/api/integrations/notion/callback");
    expect(back.searchParams.get("state")).toBe(accessToken);

    const page = await returnTo(back, b, "notion");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.message).toBe(fillTemplate(messages.connectorConnected, { provider: "Notion" }));
    // The page tells the editor through its opener (our origin only) and a BroadcastChannel.
    expect(page.text).toContain('postMessage(m,"http://localhost:3000")');
    expect(page.text).toContain('{"type":"connector-connected","provider":"notion"}');
    expect(page.text).toContain('new BroadcastChannel("connectors")');
    expect(page.text).toContain(`/build/app/${app.id}`);
    // Its inline script runs under the API's strict CSP only by its hash.
    const script = page.text.match(/<script>([\s\S]*)<\/script>/)![1]!;
    const hash = crypto.createHash("sha256").update(script).digest("base64");
    expect(page.headers.get("content-security-policy")).toContain(`script-src 'sha256-${hash}'`);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");

    const row = (await findConnection(b.account.accountId, "notion"))!;
    expect(row.accessToken).toMatch(/^v1\./);
    expect(row.accessToken).not.toContain("ntn_");
    expect(openToken(row.accessToken)).toMatch(/^ntn_/);
    expect(row.externalAccountName).toBe("Acme Workspace");
    expect((await fetchConnectorTokens(b, app.id)).connectors.notion).toMatchObject({
      connected: true,
      accountName: "Acme Workspace",
    });
  });

  it("Google Drive: offline access with PKCE, a refresh token kept, the Google account named", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const { accessToken } = await fetchConnectorTokens(b, app.id);
    const auth = await callPage(authorize.GET, {
      path: `/api/integrations/google-drive/authorize?token=${accessToken}`,
      cookie: b.cookie,
      params: { provider: "google-drive" },
    });
    const to = new URL(auth.headers.get("location")!);
    expect(to.searchParams.get("access_type")).toBe("offline");
    expect(to.searchParams.get("prompt")).toBe("consent");
    expect(to.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/drive.readonly");
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(to.searchParams.get("state")).toBe(accessToken);

    await connectProvider(b, app.id, "google-drive");
    const row = (await findConnection(b.account.accountId, "google-drive"))!;
    expect(openToken(row.accessToken)).toMatch(/^ya29\./);
    expect(openToken(row.refreshToken!)).toMatch(/^1\/\//);
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(row.externalAccountName).toBe("drive.tester@example.com");
  });

  it("refuses a forged state, an altered one and an expired one, and stores nothing", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const { accessToken } = await fetchConnectorTokens(b, app.id);
    const back = await consent(b, "notion", accessToken);

    const forged = new URL(back);
    forged.searchParams.set("state", "eyJhbGciOiJIUzI1NiJ9.eyJhY2NvdW50SWQiOiJ4In0.c2lnbmF0dXJl");
    const forgedPage = await returnTo(forged, b, "notion");
    expect(forgedPage.status).toBe(400);
    expect(forgedPage.message).toBe(messages.connectorStateInvalid);
    expect(forgedPage.text).toContain('"type":"connector-error"');

    // The same claims for another account, with the signature of ours: refused.
    const [h, p, s] = accessToken.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, accountId: crypto.randomUUID() })).toString(
      "base64url",
    );
    const tampered = new URL(back);
    tampered.searchParams.set("state", `${h}.${altered}.${s}`);
    expect((await returnTo(tampered, b, "notion")).message).toBe(messages.connectorStateInvalid);

    // Eleven minutes later the state has expired (10 minutes).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    const late = await returnTo(back, b, "notion");
    expect(late.status).toBe(400);
    expect(late.message).toBe(messages.connectorStateExpired);
    vi.useRealTimers();

    expect(await findConnection(b.account.accountId, "notion")).toBeUndefined();
  });

  it("refuses a state issued to another account, and a callback without a session", async () => {
    const a = await createBuilder();
    const other = await createBuilder();
    const app = await newApp(a);
    const { accessToken } = await fetchConnectorTokens(a, app.id);
    const back = await consent(a, "notion", accessToken);
    const wrong = await returnTo(back, other, "notion");
    expect(wrong.status).toBe(403);
    expect(wrong.message).toBe(messages.connectorWrongAccount);
    const anonymous = await returnTo(back, {}, "notion");
    expect(anonymous.status).toBe(401);
    expect(anonymous.message).toBe(messages.unauthenticated);
    expect(await findConnection(other.account.accountId, "notion")).toBeUndefined();
    expect(await findConnection(a.account.accountId, "notion")).toBeUndefined();
  });

  it("says so when the builder does not allow access", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const { accessToken } = await fetchConnectorTokens(b, app.id);
    notion.denyNext();
    const page = await returnTo(await consent(b, "notion", accessToken), b, "notion");
    expect(page.status).toBe(400);
    expect(page.message).toBe(fillTemplate(messages.connectorDenied, { provider: "Notion" }));
    expect(await findConnection(b.account.accountId, "notion")).toBeUndefined();
  });

  it("an admin may open a customer's app, but not attach their own account to it", async () => {
    const owner = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    const app = await newApp(owner);
    const { accessToken } = await fetchConnectorTokens(admin, app.id);
    const page = await callPage(authorize.GET, {
      path: `/api/integrations/notion/authorize?token=${accessToken}`,
      cookie: admin.cookie,
      params: { provider: "notion" },
    });
    expect(page.status).toBe(403);
    expect(page.message).toBe(fillTemplate(messages.connectorOwnerOnly, { provider: "Notion" }));
  });
});

describe("listing files (GET /api/integrations/{provider}/files)", () => {
  it("Notion: the pages and databases shared with the integration, searchable", async () => {
    const { b, app } = await connected("notion");
    const res = await listFiles(b, app.id, "notion");
    expect(res.status).toBe(200);
    expect(res.json.files).toEqual([
      {
        externalFileId: notion.fixtures.pageId,
        name: "Onboarding Guide",
        type: "notion page",
        externalFileUrl: expect.stringMatching(/^https:\/\/www\.notion\.so\//),
      },
      {
        externalFileId: notion.fixtures.databaseId,
        name: "Product Catalog",
        type: "notion database",
        externalFileUrl: expect.stringMatching(/^https:\/\/www\.notion\.so\//),
      },
    ]);
    const found = await listFiles(b, app.id, "notion", "catalog");
    expect(found.json.files.map((f) => f.name)).toEqual(["Product Catalog"]);
  });

  it("Google Drive: readable files only (no image, nothing trashed), every page of the list", async () => {
    const { b, app } = await connected("google-drive");
    const res = await listFiles(b, app.id, "google-drive");
    expect(res.status).toBe(200);
    expect(res.json.files.map((f) => [f.name, f.type])).toEqual([
      ["Refund Policy", "google doc"],
      ["Price List", "google sheet"],
      ["Sales Deck", "google slide"],
      ["Handbook.pdf", "pdf"],
    ]);
    const found = await listFiles(b, app.id, "google-drive", "refund");
    expect(found.json.files.map((f) => f.name)).toEqual(["Refund Policy"]);
    // A quote in the search is escaped, not a broken query.
    expect((await listFiles(b, app.id, "google-drive", "it's")).json.files).toEqual([]);
  });

  it("without a connection: 400 asking to connect first", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const res = await listFiles(b, app.id, "notion");
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      code: "connector/not-connected",
      message: fillTemplate(messages.connectorNotConnected, { provider: "Notion" }),
    });
  });
});

describe("ingesting connector files (POST /api/context/ingest/metadata) and the job", () => {
  it("a Notion page and database end Synced: nested blocks read, rows kept, found by search", async () => {
    const { b, app } = await connected("notion");
    const res = await ingest(b, app.id, [
      notionPage(),
      {
        source: "notion",
        externalFileId: notion.fixtures.databaseId,
        name: "Product Catalog",
        type: "notion database",
      },
    ]);
    expect(res.status).toBe(200);
    const [pageId, dbId] = res.json.contextItemIds;
    expect(await itemOf(pageId!)).toMatchObject({
      status: "pending",
      source: "notion",
      type: "notion page",
      name: "Onboarding Guide",
      externalFileId: notion.fixtures.pageId,
      externalFileUrl: "https://www.notion.so/Onboarding-Guide",
      provider: "notion",
    });
    await runDueJobs();
    for (const id of [pageId!, dbId!]) {
      const item = await itemOf(id);
      expect(item, item.error ?? "").toMatchObject({ status: "synced", error: null });
      expect(item.lastSyncedAt).toBeInstanceOf(Date);
    }
    const text = await chunkText(pageId!);
    expect(text).toContain("Onboarding Guide");
    expect(text).toContain(notion.fixtures.pageWord);
    expect(text).toContain(notion.fixtures.nestedWord); // a toggle's child
    expect(text).toContain("[x] Sign the NDA");
    expect(text).toContain("Office opens at 9 am."); // past the first page of blocks
    expect(text).not.toContain("never read"); // a sub-page is an item of its own
    const hits = await retrieveChunks(app.id, notion.fixtures.pageWord);
    expect(hits.map((h) => h.itemId)).toContain(pageId);

    const rows = await listContextRows(dbId!);
    expect(rows.map((r) => r.data)).toEqual([
      { Name: "Walnut Desk", Price: "499", Category: "Furniture", "In stock": "Yes", Tags: "new, sale" },
      { Name: "Quokka Lamp", Price: "89", Category: "Lighting", "In stock": "No", Tags: "new, sale" },
      { Name: "Fern Shelf", Price: "129", Category: "Furniture", "In stock": "Yes", Tags: "new, sale" },
    ]);
    expect(await chunkText(dbId!)).toContain("Name: Walnut Desk; Price: 499; Category: Furniture");
  });

  it("Google Docs, Sheets, Slides and a PDF end Synced; a sheet's rows land like a CSV's", async () => {
    const { b, app } = await connected("google-drive");
    const f = drive.fixtures;
    const res = await ingest(b, app.id, [
      driveFile(f.docId, "Refund Policy", "google doc"),
      driveFile(f.sheetId, "Price List", "google sheet"),
      driveFile(f.slidesId, "Sales Deck", "google slide"),
      driveFile(f.pdfId, "Handbook.pdf", "pdf"),
    ]);
    expect(res.status).toBe(200);
    const [docId, sheetId, slidesId, pdfId] = res.json.contextItemIds;
    await runDueJobs();
    for (const id of res.json.contextItemIds) {
      const item = await itemOf(id);
      expect(item.status, `${item.name}: ${item.error}`).toBe("synced");
    }
    expect(await chunkText(docId!)).toContain(f.docWord);
    expect(await chunkText(slidesId!)).toContain(f.slidesWord);
    expect(await chunkText(pdfId!)).toContain(f.pdfWord);
    expect((await listContextRows(sheetId!)).map((r) => r.data)).toEqual([
      { Product: "Teapot", Price: "25", Colour: "Blue" },
      { Product: "Kettle", Price: "40", Colour: "Red" },
      { Product: "Mug", Price: "8", Colour: "Blue" },
    ]);
    expect(await chunkText(sheetId!)).toContain("Product: Kettle; Price: 40; Colour: Red");
    const hits = await retrieveChunks(app.id, f.pdfWord);
    expect(hits.map((h) => h.itemId)).toEqual([pdfId]);
  });

  it("lite: 2 files in one request are refused with the upgrade prompt, and nothing is added", async () => {
    const { b, app } = await connected("notion", "lite");
    const res = await ingest(b, app.id, [
      notionPage(),
      {
        source: "notion",
        externalFileId: notion.fixtures.databaseId,
        name: "Catalog",
        type: "notion database",
      },
    ]);
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({
      code: "PLAN_LIMIT",
      message: fillTemplate(messages.connectorTooManyFiles, { max: 1 }),
    });
    expect(res.json.upgradeReason).toBe("connectorFiles");
    expect(await db().select().from(contextItems).where(eq(contextItems.appId, app.id))).toEqual([]);
  });

  it("paid: 6 files in one request are refused (5 at most)", async () => {
    const { b, app } = await connected("notion");
    const res = await ingest(
      b,
      app.id,
      Array.from({ length: 6 }, () => notionPage()),
    );
    // No plan imports more at once: the reason, without an upgrade prompt.
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      code: "connector/too-many-files",
      message: fillTemplate(messages.connectorTooManyFiles, { max: 5 }),
    });
    expect(res.json.upgradeReason).toBeUndefined();
  });

  it("lite: a file counts against the 1 data item, and `replacing` lets it take the item's place", async () => {
    const { b, app } = await connected("notion", "lite");
    const first = await ingest(b, app.id, [notionPage()]);
    expect(first.status).toBe(200);
    const second = await ingest(b, app.id, [notionPage()]);
    expect(second.status).toBe(403);
    expect(second.json.error?.message).toBe(messages.upgradeReasonDataItems);
    const replacing = await ingest(b, app.id, [notionPage()], `&replacing=${first.json.contextItemIds[0]}`);
    expect(replacing.status).toBe(200);
    await runDueJobs();
  });

  it("a burst of parallel requests cannot pass the data-item limit", async () => {
    const { b, app } = await connected("notion", "lite");
    const answers = await Promise.all(Array.from({ length: 5 }, () => ingest(b, app.id, [notionPage()])));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await db().select().from(contextItems).where(eq(contextItems.appId, app.id))).toHaveLength(1);
    await runDueJobs();
  });

  it("without a connection to that provider: 400, nothing added", async () => {
    const { b, app } = await connected("notion");
    const res = await ingest(b, app.id, [driveFile(drive.fixtures.docId, "Refund Policy", "google doc")]);
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      code: "connector/not-connected",
      message: fillTemplate(messages.connectorNotConnected, { provider: "Google Drive" }),
    });
    expect(await db().select().from(contextItems).where(eq(contextItems.appId, app.id))).toEqual([]);
  });

  it("checks the payload: a link must be http(s), a website an absolute address", async () => {
    const { b, app } = await connected("notion");
    const js = await ingest(b, app.id, [{ ...notionPage(), externalFileUrl: "javascript:alert(1)" }]);
    expect(js.status).toBe(400);
    const unknown = await ingest(b, app.id, [
      { source: "dropbox", externalFileId: "x", name: "x", type: "txt" },
    ]);
    expect(unknown.status).toBe(400);
    for (const url of ["example.com", "ftp://example.com/x", "/relative", "https://user:pw@example.com/"]) {
      const res = await ingest(b, app.id, [{ source: "web scraper", url }]);
      expect(res.status, url).toBe(400);
      expect(res.json.error?.message).toBe(messages.contextWebUrlInvalid);
    }
    expect(await db().select().from(contextItems).where(eq(contextItems.appId, app.id))).toEqual([]);
  });

  it("a website is one pending item named by its host and path", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const res = await ingest(b, app.id, [
      { source: "web scraper", url: "https://docs.example.com/guide/#top" },
      { source: "web scraper", url: "http://example.org" },
    ]);
    expect(res.status).toBe(200);
    const items = await Promise.all(res.json.contextItemIds.map(itemOf));
    expect(items.map((i) => [i.name, i.type, i.source, i.externalFileUrl, i.status])).toEqual([
      ["docs.example.com/guide", "web page", "web scraper", "https://docs.example.com/guide/", "pending"],
      ["example.org", "web page", "web scraper", "http://example.org/", "pending"],
    ]);
    // The crawl is the web scraper's (tests of lib/context/web); these never reach the network.
    await db().delete(contextItems).where(eq(contextItems.appId, app.id));
  });
});

describe("sync again (POST /api/context/{id}/sync)", () => {
  it("reads the document again: new text in, old text out, lastSyncedAt moved on", async () => {
    const { b, app } = await connected("notion");
    const [id] = (await ingest(b, app.id, [notionPage()])).json.contextItemIds;
    await runDueJobs();
    const before = await itemOf(id!);
    expect(before.status).toBe("synced");

    notion.editPage("The handshake is now tangerine-walrus.");
    const res = await sync(b, id!);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect((await itemOf(id!)).status).toBe("pending");
    await runDueJobs();
    const after = await itemOf(id!);
    expect(after.status).toBe("synced");
    expect(after.lastSyncedAt!.getTime()).toBeGreaterThan(before.lastSyncedAt!.getTime());
    const text = await chunkText(id!);
    expect(text).toContain("tangerine-walrus");
    expect(text).not.toContain(notion.fixtures.pageWord);
    notion.editPage(`The secret handshake is ${notion.fixtures.pageWord}.`);
  });

  it("refuses a text or an uploaded file (400), and anybody but the app's editors (404)", async () => {
    const { b, app } = await connected("notion");
    const text = await insertContextItem({
      appId: app.id,
      name: "Pasted",
      type: "txt",
      source: "local files",
      status: "synced",
      size: 4,
      content: "text",
    });
    const res = await sync(b, text.id);
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: "context/not-syncable", message: messages.contextNotSyncable });

    const [id] = (await ingest(b, app.id, [notionPage()])).json.contextItemIds;
    const stranger = await createBuilder();
    expect((await sync(stranger, id!)).status).toBe(404);
    expect((await sync(stranger, crypto.randomUUID())).status).toBe(404);
    await runDueJobs();
  });

  it("after a disconnect: 400 asking to connect again", async () => {
    const { b, app } = await connected("google-drive");
    const [id] = (await ingest(b, app.id, [driveFile(drive.fixtures.docId, "Refund Policy", "google doc")]))
      .json.contextItemIds;
    await runDueJobs();
    const gone = await call(disconnectRoute.DELETE, {
      method: "DELETE",
      path: "/api/integrations/google-drive",
      token: b.token,
      params: { provider: "google-drive" },
    });
    expect(gone.status).toBe(200);
    expect(gone.json).toEqual({ ok: true });
    expect(await findConnection(b.account.accountId, "google-drive")).toBeUndefined();
    // Google was asked to end the grant too.
    expect(drive.revokedTokens.length).toBeGreaterThan(0);
    expect((await fetchConnectorTokens(b, app.id)).connectors["google-drive"].connected).toBe(false);
    const res = await sync(b, id!);
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe(
      fillTemplate(messages.connectorNotConnected, { provider: "Google Drive" }),
    );
  });
});

describe("failures no retry cures end in Error with a readable reason", () => {
  it("Notion access revoked", async () => {
    const { b, app } = await connected("notion");
    const [id] = (await ingest(b, app.id, [notionPage()])).json.contextItemIds;
    await runDueJobs();
    notion.revokeAll();
    expect((await sync(b, id!)).status).toBe(200);
    await runDueJobs();
    expect(await itemOf(id!)).toMatchObject({ status: "error", error: messages.notionAccessRevoked });
    // The list says to connect again.
    const list = await listFiles(b, app.id, "notion");
    expect(list.status).toBe(400);
    expect(list.json.error).toEqual({
      code: "connector/reconnect",
      message: fillTemplate(messages.connectorReconnect, { provider: "Notion" }),
    });
  });

  it("Google Drive access revoked: refused, then refused a renewal", async () => {
    const { b, app } = await connected("google-drive");
    const [id] = (await ingest(b, app.id, [driveFile(drive.fixtures.docId, "Refund Policy", "google doc")]))
      .json.contextItemIds;
    drive.revokeAll();
    await runDueJobs();
    expect(await itemOf(id!)).toMatchObject({ status: "error", error: messages.googleDriveAccessRevoked });
  });

  it("a Drive file deleted, or of a type that cannot be read", async () => {
    const { b, app } = await connected("google-drive");
    const tmpDoc = crypto.randomUUID();
    const res = await ingest(b, app.id, [
      driveFile(tmpDoc, "Gone", "google doc"),
      driveFile(drive.fixtures.imageId, "Team photo", "pdf"),
    ]);
    const [goneId, imageId] = res.json.contextItemIds;
    await runDueJobs();
    expect(await itemOf(goneId!)).toMatchObject({ status: "error", error: messages.connectorFileGone });
    // Read by what the file is in Drive, not by the type the request claimed.
    expect(await itemOf(imageId!)).toMatchObject({ status: "error", error: messages.connectorFileType });
  });

  it("a connection removed before the job ran", async () => {
    const { b, app } = await connected("notion");
    await connectProvider(b, app.id, "google-drive");
    const res = await ingest(b, app.id, [
      notionPage(),
      driveFile(drive.fixtures.docId, "Refund Policy", "google doc"),
    ]);
    await db()
      .delete(integrationConnections)
      .where(eq(integrationConnections.accountId, b.account.accountId));
    await runDueJobs();
    const [notionItem, driveItem] = await Promise.all(res.json.contextItemIds.map(itemOf));
    expect(notionItem).toMatchObject({ status: "error", error: messages.notionNotConnectedItem });
    expect(driveItem).toMatchObject({ status: "error", error: messages.googleDriveNotConnectedItem });
  });

  it("a file larger than the plan allows is not read past the cap", async () => {
    const { b, app } = await connected("google-drive", "lite");
    drive.setDocText("word ".repeat(2_200_000)); // 11 MB, over lite's 10 MB
    try {
      const [id] = (await ingest(b, app.id, [driveFile(drive.fixtures.docId, "Refund Policy", "google doc")]))
        .json.contextItemIds;
      await runDueJobs();
      expect(await itemOf(id!)).toMatchObject({ status: "error", error: messages.connectorFileTooLarge });
    } finally {
      drive.setDocText(`Refunds are accepted within 30 days. Code word: ${drive.fixtures.docWord}.`);
    }
  });

  it("a Notion page deleted", async () => {
    const { b, app } = await connected("notion");
    const res = await ingest(b, app.id, [{ ...notionPage(), externalFileId: crypto.randomUUID() }]);
    await runDueJobs();
    expect(await itemOf(res.json.contextItemIds[0]!)).toMatchObject({
      status: "error",
      error: messages.connectorFileGone,
    });
  });
});

describe("failures a retry may cure", () => {
  it("the provider unavailable: the list says to try later; the job goes back to Pending to retry", async () => {
    const { b, app } = await connected("notion");
    notion.failNextCall();
    const list = await listFiles(b, app.id, "notion");
    expect(list.status).toBe(502);
    expect(list.json.error?.message).toBe(fillTemplate(messages.connectorListFailed, { provider: "Notion" }));

    const [id] = (await ingest(b, app.id, [notionPage()])).json.contextItemIds;
    notion.failNextCall();
    await runDueJobs();
    expect(await itemOf(id!)).toMatchObject({ status: "pending", error: null });
  });

  it("a code the provider refuses (used twice): the page says to try again", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const { accessToken } = await fetchConnectorTokens(b, app.id);
    const back = await consent(b, "notion", accessToken);
    expect((await returnTo(back, b, "notion")).status).toBe(200);
    const again = await returnTo(back, b, "notion");
    expect(again.status).toBe(502);
    expect(again.message).toBe(fillTemplate(messages.connectorExchangeFailed, { provider: "Notion" }));
  });
});

describe("Google Drive token refresh", () => {
  const connectionOf = async (accountId: string) =>
    (
      await db()
        .select()
        .from(integrationConnections)
        .where(
          and(
            eq(integrationConnections.accountId, accountId),
            eq(integrationConnections.provider, "google-drive"),
          ),
        )
    )[0]!;

  it("an expired token is renewed before the call, and the new one stored", async () => {
    const { b, app } = await connected("google-drive");
    const before = await connectionOf(b.account.accountId);
    await db()
      .update(integrationConnections)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(integrationConnections.id, before.id));
    drive.expireAccessTokens();
    const refreshes = drive.refreshCount();
    const [id] = (await ingest(b, app.id, [driveFile(drive.fixtures.docId, "Refund Policy", "google doc")]))
      .json.contextItemIds;
    await runDueJobs();
    expect((await itemOf(id!)).status).toBe("synced");
    expect(drive.refreshCount()).toBe(refreshes + 1);
    const after = await connectionOf(b.account.accountId);
    expect(openToken(after.accessToken)).not.toBe(openToken(before.accessToken));
    expect(after.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    // The refresh token is kept (Google sends none with a renewal).
    expect(openToken(after.refreshToken!)).toBe(openToken(before.refreshToken!));
  });

  it("a token refused although unexpired by our clock is renewed once and the call made again", async () => {
    const { b, app } = await connected("google-drive");
    drive.expireAccessTokens();
    const refreshes = drive.refreshCount();
    const list = await listFiles(b, app.id, "google-drive");
    expect(list.status).toBe(200);
    expect(list.json.files).toHaveLength(4);
    expect(drive.refreshCount()).toBe(refreshes + 1);
  });

  it("two readers of one expired token renew it once", async () => {
    const { b, app } = await connected("google-drive");
    await db()
      .update(integrationConnections)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(integrationConnections.accountId, b.account.accountId));
    const refreshes = drive.refreshCount();
    const lists = await Promise.all([1, 2, 3].map(() => listFiles(b, app.id, "google-drive")));
    expect(lists.map((l) => l.status)).toEqual([200, 200, 200]);
    expect(drive.refreshCount()).toBe(refreshes + 1);
  });

  it("a renewal refused ends the item in Error with the reason", async () => {
    const { b, app } = await connected("google-drive");
    await db()
      .update(integrationConnections)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(integrationConnections.accountId, b.account.accountId));
    drive.revokeAll();
    const [id] = (await ingest(b, app.id, [driveFile(drive.fixtures.docId, "Refund Policy", "google doc")]))
      .json.contextItemIds;
    await runDueJobs();
    expect(await itemOf(id!)).toMatchObject({ status: "error", error: messages.googleDriveRefreshFailed });
  });
});
