import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db/client";
import { listTools, setAppStatus } from "../../db/queries/apps";
import { insertContextItem } from "../../db/queries/context";
import { accounts, appSettings } from "../../db/schema";
import { sessionCookieName } from "../../lib/auth/session-token";
import { deployAllFunctions } from "../../lib/functions/deploy";
import { PLAN_CATALOGUE } from "../../lib/plans/catalogue";
import { hashContent } from "../../lib/space/files";
import {
  type Answer,
  ContractChecker,
  exampleOf,
  loadContract,
  type OperationRef,
  type Request,
  send,
} from "../support/api-contract";
import { appTokenFor } from "../support/app-data";
import { connectProvider, consent, fetchConnectorTokens } from "../support/connector-flow";
import {
  createBuilder,
  createEndUser,
  mailsTo,
  oobCodeIn,
  STRONG_PASSWORD,
  sixDigitCodeIn,
  uniqueEmail,
} from "../support/factories";
import { GUMROAD_PRODUCTS, gumroadServerEnv, startGumroadServer } from "../support/gumroad-server";
import { multipartOf } from "../support/http";
import { PNG } from "../support/images";
import { type ActorName, CODE_HOME, createWorld, type World } from "../support/matrix";
import { notionServerEnv, startNotionServer } from "../support/notion-server";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { newApp } from "../support/runs";
import { createSpaceApp, page, say } from "../support/space";
import { catalogueStripePrices, startStripeServer, stripeServerEnv } from "../support/stripe-server";

// The contract of /api/openapi.json, held to: every operation of the document is sent a request
// built from its example (the body schema's example, ids filled from a fixture world) as a caller
// allowed to call it, and its answer must have a status the operation declares and a body the
// schema declared for that status accepts (ajv, JSON Schema 2020-12, the document's own
// components), and every one must succeed (2xx, or the redirect that is its success).
//
// Every outside service is a local server speaking its protocol. lib/env reads once: set first.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-contract-"));
process.env.STORAGE_DIR = STORAGE_DIR;
const model = await startOpenAiServer({ responder: demoResponder });
const gumroad = await startGumroadServer();
const { prices, env: priceEnv } = catalogueStripePrices(PLAN_CATALOGUE);
const stripe = await startStripeServer({ prices });
const notion = await startNotionServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(
  process.env,
  openAiServerEnv(model),
  gumroadServerEnv(gumroad),
  stripeServerEnv(stripe),
  priceEnv,
  notionServerEnv(notion),
);
afterAll(async () => {
  await Promise.all([model.close(), gumroad.close(), stripe.close(), notion.close()]);
  fs.rmSync(STORAGE_DIR, { recursive: true, force: true });
});

const { doc, operations } = await loadContract();
const checker = new ContractChecker(doc);
const byName = new Map(operations.map((o) => [o.name, o]));

/** The matrix world, and what the operations below need beyond it. */
type Fixture = World & {
  /** a space app of builder A whose versions the revert may cut */
  revertApp: { id: string; versionId: string; answerId: string };
  /** builder A's photo tool app (a published single-tool app with a photo field) */
  photoApp: { id: string };
  /** a published space app of builder A with one deployed function, `hello` */
  fnApp: { id: string };
  /** a builder whose sessions and password the identity operations may change */
  throwaway: () => Promise<{ token: string; email: string }>;
};

type Case = {
  /** who calls (bearer token); builder A, the owner of the fixture's apps, unless said */
  as?: ActorName;
  request?: (w: Fixture, example: unknown) => Request | Promise<Request>;
  /** more to check of a success */
  check?: (answer: Answer) => void;
};

const app = (w: World) => ({ appId: w.appA.id });

/** A save of app A's settings or style, at the revision the editor reads now. */
async function atEditorRevision(w: World, example: unknown, part: "settings" | "style") {
  const editor = await first("GET /api/apps/{appId}", { params: app(w), token: w.actors.builderA.token });
  const { revision } = (editor.json as Record<typeof part, { revision: number }>)[part];
  return { params: app(w), body: { ...(example as object), baseRevision: revision } };
}
const space = (w: World) => ({ appId: w.spaceAppA.id });

/**
 * A call of the world's published space app's own code (its data API): with the app token that
 * builder A's session gets for it (the app's admin), as the page around the app's frame asks.
 */
async function fromDataApp(w: World, params: Record<string, string> = {}): Promise<Request> {
  return {
    params: { appId: w.dataApp.id, ...params },
    token: await appTokenFor(w.dataApp.id, w.actors.builderA.token),
  };
}
const task = { entity: "Task" };
/** A form of text parts as the request's bytes. */
const formBytes = (parts: Record<string, string>) => {
  const { rawBody, headers } = multipartOf(parts);
  return { bytes: rawBody, contentType: headers["content-type"] };
};
/** The CORS preflight of the app's frame: a sandboxed document, of Origin null. */
const preflight = (w: World, params: Record<string, string>, method: string): Request => ({
  params: { appId: w.dataApp.id, ...params },
  headers: { origin: "null", "access-control-request-method": method },
});

/** Sends a request to another operation first (e.g. to get an id it answers). */
async function first(name: string, r: Request): Promise<Answer> {
  const ref = byName.get(name);
  if (!ref) throw new Error(`no operation ${name}`);
  return send(ref, r);
}

const CASES: Record<string, Case> = {
  "GET /api/admin/builders": { as: "admin", request: () => ({ query: { q: "example.com" } }) },
  "PATCH /api/admin/builders/{accountId}": {
    as: "admin",
    request: (w, ex) => ({ params: { accountId: w.actors.builderB.account.accountId }, body: ex }),
  },
  "GET /api/app/paidPlans": { request: (w) => ({ query: app(w) }) },
  "GET /api/apps": {},
  "POST /api/apps": {
    request: (_w, ex) => ({ body: { ...(ex as object), appId: crypto.randomUUID() } }),
  },
  "POST /api/apps/claim": {
    as: "builderB",
    request: async (w) => {
      // An admin's claimable, published app, and its invitation.
      const admin = w.actors.admin;
      const claimable = await newApp(admin, { settings: { isClaimable: true } });
      const invite = await first("GET /api/apps/{appId}/settings/claimInvitation", {
        params: { appId: claimable.id },
        token: admin.token,
      });
      return { body: { claimCode: (invite.json as { claimCode: string }).claimCode } };
    },
  },
  "GET /api/apps/{appId}": { request: (w) => ({ params: app(w) }) },
  "PATCH /api/apps/{appId}": {
    request: (w, ex) => ({ params: app(w), body: { ...(ex as object), baseRevision: w.appA.revision } }),
  },
  "DELETE /api/apps/{appId}": { request: (w) => ({ params: { appId: w.spareApps.pop()!.id } }) },
  "GET /api/apps/{appId}/analytics": { request: (w) => ({ params: app(w) }) },
  "GET /api/apps/{appId}/analytics/runs": { request: (w) => ({ params: app(w) }) },
  "POST /api/apps/{appId}/chat": { request: (w, ex) => ({ params: space(w), body: ex }) },
  "POST /api/apps/{appId}/chat/activate": { request: (w, ex) => ({ params: app(w), body: ex }) },
  "GET /api/apps/{appId}/chat/history": { request: (w) => ({ params: space(w), query: { limit: "50" } }) },
  "GET /api/apps/{appId}/data/{entity}": {
    request: (w) => fromDataApp(w, task),
    check: (a) => expect((a.json as { records: unknown[] }).records.length).toBeGreaterThan(0),
  },
  "POST /api/apps/{appId}/data/{entity}": {
    request: async (w, ex) => ({ ...(await fromDataApp(w, task)), body: ex }),
  },
  "OPTIONS /api/apps/{appId}/data/{entity}": { as: "anonymous", request: (w) => preflight(w, task, "POST") },
  "POST /api/apps/{appId}/data/{entity}/bulk": {
    request: async (w, ex) => ({ ...(await fromDataApp(w, task)), body: ex }),
  },
  "OPTIONS /api/apps/{appId}/data/{entity}/bulk": {
    as: "anonymous",
    request: (w) => preflight(w, task, "POST"),
  },
  "GET /api/apps/{appId}/data/{entity}/{recordId}": {
    request: (w) => fromDataApp(w, { ...task, recordId: w.dataRecordId }),
  },
  "PATCH /api/apps/{appId}/data/{entity}/{recordId}": {
    request: async (w, ex) => ({
      ...(await fromDataApp(w, { ...task, recordId: w.dataRecordId })),
      body: ex,
    }),
  },
  "DELETE /api/apps/{appId}/data/{entity}/{recordId}": {
    request: (w) => fromDataApp(w, { ...task, recordId: w.spareDataRecordIds.pop()! }),
  },
  "OPTIONS /api/apps/{appId}/data/{entity}/{recordId}": {
    as: "anonymous",
    request: (w) => preflight(w, { ...task, recordId: w.dataRecordId }, "PATCH"),
  },
  "GET /api/apps/{appId}/runtime/me": { request: (w) => fromDataApp(w) },
  "PATCH /api/apps/{appId}/runtime/me": {
    // An end user of the app changes their own fields (a builder has none of the app's).
    request: async (w, ex) => {
      const endUser = await createEndUser(w.dataApp.id);
      return {
        params: { appId: w.dataApp.id },
        token: await appTokenFor(w.dataApp.id, endUser.token),
        body: ex,
      };
    },
  },
  "OPTIONS /api/apps/{appId}/runtime/me": { as: "anonymous", request: (w) => preflight(w, {}, "PATCH") },
  "POST /api/apps/{appId}/runtime/token": {
    request: (w) => ({ params: { appId: w.dataApp.id } }),
    check: (a) => expect((a.json as { token: string | null }).token).toEqual(expect.any(String)),
  },
  "GET /api/apps/{appId}/entities": { request: (w) => ({ params: space(w) }) },
  "GET /api/apps/{appId}/entities/{entity}/export": {
    request: (w) => ({ params: { ...space(w), entity: "Note" } }),
  },
  "GET /api/apps/{appId}/entities/{entity}/records": {
    request: (w) => ({ params: { ...space(w), entity: "Note" } }),
  },
  "POST /api/apps/{appId}/entities/{entity}/records": {
    request: (w, ex) => ({ params: { ...space(w), entity: "Note" }, body: ex }),
  },
  "PATCH /api/apps/{appId}/entities/{entity}/records/{recordId}": {
    request: (w, ex) => ({ params: { ...space(w), entity: "Note", recordId: w.editedRecordId }, body: ex }),
  },
  "DELETE /api/apps/{appId}/entities/{entity}/records/{recordId}": {
    request: (w) => ({ params: { ...space(w), entity: "Note", recordId: w.spareRecordIds.pop()! } }),
  },
  "POST /api/apps/{appId}/entities/{entity}/imports": {
    request: (w) => ({
      params: { ...space(w), entity: "Note" },
      ...formBytes({
        mapping: JSON.stringify([
          { csvHeader: "text", schemaField: "text", dataType: "text", splitCharacter: null },
        ]),
        file: "text\nImported from a file\n",
      }),
    }),
    check: (a) => expect((a.json as { importId: string }).importId).toEqual(expect.any(String)),
  },
  "GET /api/apps/{appId}/entities/{entity}/imports/{importId}": {
    request: (w) => ({ params: { ...space(w), entity: "Note", importId: w.noteImportId } }),
  },
  "GET /api/apps/{appId}/secrets": { request: (w) => ({ params: space(w) }) },
  "POST /api/apps/{appId}/secrets": { request: (w, ex) => ({ params: space(w), body: ex }) },
  "DELETE /api/apps/{appId}/secrets/{key}": {
    request: (w) => ({ params: { ...space(w), key: w.spareSecretKeys.pop()! } }),
  },
  "POST /api/apps/{appId}/merge": { request: (w, ex) => ({ params: space(w), body: ex }) },
  "GET /api/apps/{appId}/functions": { request: (w) => ({ params: { appId: w.fnApp.id } }) },
  "POST /api/apps/{appId}/functions/deploy": { request: (w) => ({ params: { appId: w.fnApp.id } }) },
  "POST /api/apps/{appId}/functions/{name}/deploy": {
    request: (w) => ({ params: { appId: w.fnApp.id, name: "hello" } }),
  },
  ...Object.fromEntries(
    ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((method) => [
      `${method} /api/apps/{appId}/functions/{name}`,
      {
        as: "anonymous",
        request: (w: Fixture) => ({
          params: { appId: w.fnApp.id, name: "hello" },
          ...(method === "GET" || method === "OPTIONS"
            ? {}
            : { bytes: "a webhook", contentType: "text/plain" }),
        }),
      } satisfies Case,
    ]),
  ),
  "GET /api/apps/{appId}/users": { request: (w) => ({ params: space(w) }) },
  "PATCH /api/apps/{appId}/users/{userId}": {
    request: (w, ex) => ({ params: { ...space(w), userId: w.spaceEndUserA.id }, body: ex }),
  },
  "GET /api/apps/{appId}/files": { request: (w) => ({ params: { appId: w.codeAppA.id } }) },
  // Only admins edit code: the save and the delete are the admin's, on codeAppA.
  "POST /api/apps/{appId}/files/update": {
    as: "admin",
    request: (w) => ({
      params: { appId: w.codeAppA.id },
      body: {
        file: { id: "pages/Home.jsx", content: "// the contract's save\n" },
        revision: hashContent(CODE_HOME),
      },
    }),
  },
  "POST /api/apps/{appId}/files/delete": {
    as: "admin",
    request: (w) => ({ params: { appId: w.codeAppA.id }, body: { fileId: w.spareCodeFiles.pop()! } }),
  },
  "GET /api/apps/{appId}/files/history": {
    request: (w) => ({ params: space(w), query: { path: "pages/Home.jsx" } }),
  },
  "GET /api/apps/{appId}/membership": { as: "anonymous", request: (w) => ({ params: app(w) }) },
  "POST /api/apps/{appId}/membership/verify": {
    request: async (w) => {
      // A published app with paid memberships, connected to the Gumroad membership product, and
      // an end user of it whose address bought it.
      const builder = w.actors.builderA;
      const members = await newApp(builder);
      const params = { appId: members.id };
      const editor = await first("GET /api/apps/{appId}", { params, token: builder.token });
      await first("POST /api/apps/{appId}/settings", {
        params,
        token: builder.token,
        body: {
          baseRevision: (editor.json as { settings: { revision: number } }).settings.revision,
          appSettings: {
            customDomain: "members.example.com",
            isSignupEnabled: true,
            isPaidMembershipsEnabled: true,
          },
        },
      });
      await first("POST /api/apps/{appId}/payments/connect", {
        params,
        token: builder.token,
        body: { productId: GUMROAD_PRODUCTS.membership.id, accessToken: gumroad.token },
      });
      const member = await createEndUser(members.id);
      gumroad.addSale({ email: member.user.email, productId: GUMROAD_PRODUCTS.membership.id });
      return { params, token: member.token };
    },
  },
  "GET /api/apps/{appId}/payments": { request: (w) => ({ params: app(w) }) },
  "DELETE /api/apps/{appId}/payments": { request: (w) => ({ params: app(w) }) },
  "POST /api/apps/{appId}/payments/connect": {
    request: (w, ex) => ({ params: app(w), body: { ...(ex as object), accessToken: gumroad.token } }),
  },
  "GET /api/apps/{appId}/payments/products": {
    request: (w) => ({ params: app(w), query: { appId: w.appA.id, accessToken: gumroad.token } }),
  },
  "POST /api/apps/{appId}/rating": {
    request: (w, ex) => ({
      params: space(w),
      body: { ...(ex as object), messageId: w.spaceTurns[1].answerId },
    }),
  },
  "POST /api/apps/{appId}/run": {
    as: "anonymous",
    request: (w, ex) => ({ params: app(w), body: ex }),
  },
  "POST /api/apps/{appId}/run/photos": {
    as: "anonymous",
    request: (w) => ({ params: { appId: w.photoApp.id }, bytes: PNG, contentType: "image/png" }),
  },
  "GET /api/apps/{appId}/runs/{runId}/context": {
    request: (w) => ({ params: { ...app(w), runId: w.runA.id } }),
  },
  "POST /api/apps/{appId}/settings": {
    request: (w, ex) => atEditorRevision(w, ex, "settings"),
  },
  "GET /api/apps/{appId}/settings/claimInvitation": {
    as: "admin",
    request: async (w) => {
      const claimable = await newApp(w.actors.admin, { settings: { isClaimable: true } });
      return { params: { appId: claimable.id } };
    },
  },
  "POST /api/apps/{appId}/status": { request: (w, ex) => ({ params: app(w), body: ex }) },
  "POST /api/apps/{appId}/style": {
    request: (w, ex) => atEditorRevision(w, ex, "style"),
  },
  "POST /api/apps/{appId}/tools": {
    request: (w, ex) => ({ params: { appId: w.genAppA.id }, body: { ...(ex as object), path: "contract" } }),
  },
  "PUT /api/apps/{appId}/tools/order": {
    request: async (w) => ({
      params: { appId: w.genAppA.id },
      body: { toolIds: (await listTools(w.genAppA.id)).map((t) => t.id).reverse() },
    }),
  },
  "PATCH /api/apps/{appId}/tools/{toolId}": {
    request: (w, ex) => ({
      params: { appId: w.genAppA.id, toolId: w.toolA.id },
      body: { ...(ex as object), baseRevision: w.toolA.revision },
    }),
  },
  "DELETE /api/apps/{appId}/tools/{toolId}": {
    request: (w) => ({ params: { appId: w.genAppA.id, toolId: w.spareTools.pop()!.id } }),
  },
  "POST /api/apps/{appId}/uploads": {
    request: (w) => ({ params: app(w), query: { kind: "logo" }, bytes: PNG, contentType: "image/png" }),
  },
  "DELETE /api/apps/{appId}/uploads/{uploadId}": {
    request: async (w) => {
      const up = await first("POST /api/apps/{appId}/uploads", {
        params: app(w),
        query: { kind: "logo" },
        bytes: PNG,
        contentType: "image/png",
        token: w.actors.builderA.token,
      });
      return { params: { ...app(w), uploadId: (up.json as { id: string }).id } };
    },
  },
  "GET /api/apps/{appId}/versions": { request: (w) => ({ params: space(w) }) },
  "GET /api/apps/{appId}/versions/{versionId}": {
    request: (w) => ({ params: { ...space(w), versionId: w.spaceTurns[0].versionId! } }),
  },
  "GET /api/apps/{appId}/versions/{versionId}/file": {
    request: (w) => ({
      params: { ...space(w), versionId: w.spaceTurns[0].versionId! },
      query: { path: "pages/Home.jsx" },
    }),
  },
  "GET /api/apps/{appId}/versions/{versionId}/preview": {
    request: (w) => ({ params: { ...space(w), versionId: w.spaceTurns[0].versionId! } }),
  },
  "POST /api/apps/{appId}/versions/{versionId}/repair": {
    request: (w, ex) => ({ params: { ...space(w), versionId: w.spaceTurns[0].versionId! }, body: ex }),
  },
  "POST /api/apps/{appId}/versions/{versionId}/validate": {
    request: (w, ex) => ({ params: { ...space(w), versionId: w.spaceTurns[0].versionId! }, body: ex }),
  },
  "GET /api/apps/{appId}/versions/{versionId}/preview/document": {
    as: "anonymous",
    request: async (w) => {
      const params = { ...space(w), versionId: w.spaceTurns[0].versionId! };
      const preview = await first("GET /api/apps/{appId}/versions/{versionId}/preview", {
        params,
        token: w.actors.builderA.token,
      });
      const url = new URL((preview.json as { url: string }).url, "http://localhost:3000");
      return { params, query: { token: url.searchParams.get("token")! } };
    },
  },
  "POST /api/apps/{appId}/versions/{versionId}/restore": {
    request: (w, ex) => ({
      params: { ...space(w), versionId: w.spaceTurns[0].versionId! },
      body: { ...(ex as object), messageId: w.spaceTurns[0].answerId },
    }),
  },
  "POST /api/apps/{appId}/versions/{versionId}/revert": {
    request: (w, ex) => ({
      params: { appId: w.revertApp.id, versionId: w.revertApp.versionId },
      body: { ...(ex as object), messageId: w.revertApp.answerId },
    }),
  },
  "POST /api/apps/{appId}/versions/{versionId}/undo-restore": {
    request: async (w, ex) => {
      // The restore's own message, answered by a restore made here.
      const params = { ...space(w), versionId: w.spaceTurns[0].versionId! };
      const restored = await first("POST /api/apps/{appId}/versions/{versionId}/restore", {
        params,
        body: { messageId: w.spaceTurns[0].answerId },
        token: w.actors.builderA.token,
      });
      const answer = restored.json as { messages: { id: string }[]; version: { id: string } };
      const messageId = answer.messages[0]!.id;
      const versionId = answer.version.id;
      return { params: { ...params, versionId }, body: { ...(ex as object), messageId } };
    },
  },
  "GET /api/auth/{nextauth}": {
    request: (w) => ({ params: { nextauth: ["session"] }, cookie: w.actors.builderA.cookie }),
  },
  "POST /api/auth/{nextauth}": {
    as: "anonymous",
    // The login form's post: Auth.js's CSRF token and its cookie first, then email and password.
    request: async (w) => {
      const csrf = await first("GET /api/auth/{nextauth}", { params: { nextauth: ["csrf"] } });
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0]!)
        .join("; ");
      const { csrfToken } = csrf.json as { csrfToken: string };
      const { email } = await w.throwaway();
      return {
        params: { nextauth: ["callback", "password"] },
        cookie,
        bytes: new URLSearchParams({ csrfToken, email, password: STRONG_PASSWORD }).toString(),
        contentType: "application/x-www-form-urlencoded",
      };
    },
    // Signed in: the session cookie is set, and the redirect is no error page.
    check: (a) => {
      expect(a.headers.get("location")).not.toContain("error");
      expect(a.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookieName()}=`))).toBe(true);
    },
  },
  "POST /api/billing/checkout": { request: (_w, ex) => ({ body: ex }) },
  "GET /api/billing/checkout": {
    request: async (w) => {
      const sale = await first("POST /api/billing/checkout", {
        body: { planId: "explorer", interval: "monthly" },
        token: w.actors.builderB.token,
      });
      // The buyer comes back with the id of the checkout session (the last part of its address).
      const saleId = new URL((sale.json as { url: string }).url).pathname.split("/").at(-1)!;
      return { query: { sale_id: saleId } };
    },
    as: "builderB",
  },
  "POST /api/builder/magicCreate": {
    request: (w, ex) => ({ body: { ...(ex as object), appId: w.appA.id } }),
  },
  // The demo model maps the example's columns: its mapping is answered, not the fallback.
  "POST /api/csv/generateMapping": {
    request: (_w, ex) => ({ body: ex }),
    check: (a) => expect((a.json as { fallback: boolean }).fallback).toBe(false),
  },
  "GET /api/context/events": { request: (w) => ({ query: app(w) }) },
  "POST /api/context/ingest/file": {
    request: (w) => ({
      query: { appId: w.appA.id, name: "prices.csv" },
      bytes: "item,price\ntea,3\ncoffee,4\n",
      contentType: "text/csv",
    }),
  },
  "POST /api/context/ingest/metadata": {
    request: async (w) => {
      const item = await notionPage(w);
      return { query: app(w), body: { contextItems: [item] } };
    },
  },
  "POST /api/context/ingest/text": { request: (w, ex) => ({ query: app(w), body: ex }) },
  "GET /api/context/items": { request: (w) => ({ query: app(w) }) },
  "PATCH /api/context/{id}": { request: (w, ex) => ({ params: { id: w.contextItemA.id }, body: ex }) },
  "DELETE /api/context/{id}": { request: (w) => ({ params: { id: w.spareContextItems.pop()!.id } }) },
  "POST /api/context/{id}/sync": {
    request: async (w) => {
      const page = await notionPage(w);
      const item = await insertContextItem({
        appId: w.appA.id,
        name: page.name,
        type: "notion page",
        source: "notion",
        status: "synced",
        externalFileId: page.externalFileId,
        size: 0,
        content: "",
      });
      return { params: { id: item.id } };
    },
  },
  "GET /api/dev/outbox": { as: "anonymous", request: () => ({ query: { to: "nobody@example.com" } }) },
  "GET /api/files/{key}": {
    as: "anonymous",
    request: async (w) => {
      const up = await first("POST /api/apps/{appId}/uploads", {
        params: app(w),
        query: { kind: "logo" },
        bytes: PNG,
        contentType: "image/png",
        token: w.actors.builderA.token,
      });
      return { params: { key: (up.json as { key: string }).key.split("/") } };
    },
  },
  "POST /api/identity/change-password": {
    request: async (w, ex) => ({ token: (await w.throwaway()).token, body: ex }),
  },
  "POST /api/identity/check-reset-code": {
    as: "anonymous",
    request: async (w) => ({ body: { oobCode: await resetCode(w) } }),
  },
  "POST /api/identity/request-email-change": {
    request: async (w, ex) => ({
      token: (await w.throwaway()).token,
      body: { ...(ex as object), newEmail: uniqueEmail("contract-new") },
    }),
  },
  "POST /api/identity/reset-password": {
    as: "anonymous",
    request: async (w, ex) => ({ body: { ...(ex as object), oobCode: await resetCode(w) } }),
  },
  "POST /api/identity/send-verification-email": { as: "unverified", request: (_w, ex) => ({ body: ex }) },
  "GET /api/identity/sessions": {},
  "DELETE /api/identity/sessions": { request: async (w) => ({ token: (await w.throwaway()).token }) },
  "DELETE /api/identity/sessions/{sessionId}": {
    request: (w) => ({ params: { sessionId: w.builderASessionId } }),
  },
  "POST /api/identity/sign-in-with-magic-link": {
    as: "anonymous",
    request: async (w) => ({ body: { oobCode: (await magicMail(w)).oobCode } }),
  },
  "POST /api/identity/sign-in-with-password": { as: "anonymous", request: (w) => ({ body: w.loginUser }) },
  "POST /api/identity/sign-up": {
    as: "anonymous",
    request: (_w, ex) => ({ body: { ...(ex as object), email: uniqueEmail("contract-signup") } }),
  },
  "POST /api/identity/token": {},
  "POST /api/identity/verify-email": {
    as: "anonymous",
    request: async () => {
      const fresh = await createBuilder({ verified: false });
      await first("POST /api/identity/send-verification-email", { body: {}, token: fresh.token });
      return { body: { oobCode: oobCodeIn((await mailsTo(fresh.user.email))[0]!) } };
    },
  },
  "GET /api/integrations/fetchCarbonTokens": { request: (w) => ({ query: app(w) }) },
  "DELETE /api/integrations/{provider}": {
    as: "builderB",
    request: () => ({ params: { provider: "notion" } }),
  },
  "GET /api/integrations/{provider}/authorize": {
    request: async (w) => {
      const { accessToken } = await fetchConnectorTokens(w.actors.builderA, w.appA.id);
      return {
        params: { provider: "notion" },
        query: { token: accessToken },
        cookie: w.actors.builderA.cookie,
      };
    },
  },
  "GET /api/integrations/{provider}/callback": {
    request: async (w) => {
      const { accessToken } = await fetchConnectorTokens(w.actors.builderA, w.appA.id);
      const back = await consent(w.actors.builderA, "notion", accessToken);
      return {
        params: { provider: "notion" },
        query: Object.fromEntries(back.searchParams),
        cookie: w.actors.builderA.cookie,
      };
    },
  },
  "GET /api/integrations/{provider}/files": {
    request: (w) => ({ params: { provider: "notion" }, query: app(w) }),
  },
  "POST /api/live_api/account/completeEmailChange": {
    as: "anonymous",
    request: async (w) => {
      const who = await w.throwaway();
      const newEmail = uniqueEmail("contract-change");
      await first("POST /api/identity/request-email-change", {
        body: { newEmail, currentPassword: STRONG_PASSWORD },
        token: who.token,
      });
      return { body: { newEmail, oobCode: oobCodeIn((await mailsTo(newEmail))[0]!) } };
    },
  },
  "POST /api/live_api/account/create": {},
  "GET /api/live_api/account/current": {},
  "POST /api/live_api/account/sendMagicLink": {
    as: "anonymous",
    request: (w, ex) => ({
      query: app(w),
      body: { ...(ex as object), email: uniqueEmail("contract-magic") },
    }),
  },
  "POST /api/live_api/account/sendResetPasswordEmail": {
    as: "anonymous",
    request: (_w, ex) => ({ body: { ...(ex as object), email: uniqueEmail() } }),
  },
  "POST /api/live_api/account/validateOtp": {
    as: "anonymous",
    request: async (w) => {
      const { email, code } = await magicMail(w);
      return { query: app(w), body: { email, otp: code } };
    },
  },
  "GET /api/live_api/user/memories/current": { as: "endUserA", request: (w) => ({ query: app(w) }) },
  "DELETE /api/live_api/user/memories/current": { as: "endUserA", request: (w) => ({ query: app(w) }) },
  "GET /api/models": {},
  "GET /api/openapi.json": { as: "anonymous" },
  "POST /api/tools/{appId}/replaceDataItem": {
    request: async (w) => {
      const newer = await insertContextItem({
        appId: w.appA.id,
        name: "Newer item",
        type: "txt",
        source: "local files",
        status: "synced",
        size: 4,
        content: "text",
      });
      return { params: app(w), body: { oldItemId: w.spareContextItems.pop()!.id, newItemId: newer.id } };
    },
  },
  "POST /api/webhooks/stripe": {
    as: "anonymous",
    request: () => {
      const event = {
        id: `evt_${crypto.randomUUID()}`,
        object: "event",
        type: "customer.created",
        created: Math.floor(Date.now() / 1000),
        data: { object: {} },
      };
      const raw = JSON.stringify(event);
      const t = Math.floor(Date.now() / 1000);
      const v1 = crypto.createHmac("sha256", stripe.webhookSecret).update(`${t}.${raw}`).digest("hex");
      return {
        bytes: raw,
        contentType: "application/json",
        headers: { "stripe-signature": `t=${t},v1=${v1}` },
      };
    },
  },
};

/** A reset link's code for a builder of its own (a reset ends its sessions). */
async function resetCode(w: Fixture): Promise<string> {
  const { email } = await w.throwaway();
  await first("POST /api/live_api/account/sendResetPasswordEmail", { body: { email } });
  return oobCodeIn((await mailsTo(email))[0]!);
}

/** A magic link mail of app A to a new address: its 6-digit code and its link's code. */
async function magicMail(w: Fixture) {
  const email = uniqueEmail("contract-otp");
  await first("POST /api/live_api/account/sendMagicLink", { query: app(w), body: { email } });
  const mail = (await mailsTo(email))[0]!;
  return { email, code: sixDigitCodeIn(mail), oobCode: oobCodeIn(mail) };
}

/** The Notion page of the local Notion server, as the Data Sources dialog sends it. */
async function notionPage(w: Fixture) {
  const listed = await first("GET /api/integrations/{provider}/files", {
    params: { provider: "notion" },
    query: app(w),
    token: w.actors.builderA.token,
  });
  const files = (listed.json as { files: { externalFileId: string; name: string; type: string }[] }).files;
  const pageFile = files.find((f) => f.type === "notion page")!;
  return {
    source: "notion",
    externalFileId: pageFile.externalFileId,
    name: pageFile.name,
    type: "notion page" as const,
  };
}

async function createFixture(): Promise<Fixture> {
  const world = await createWorld();
  // The top plan: no operation stops at "your plan cannot".
  await db()
    .update(accounts)
    .set({ plan: "agency" })
    .where(eq(accounts.accountId, world.actors.builderA.account.accountId));
  const owner = world.actors.builderA.account.accountId;
  const revert = await createSpaceApp(owner, "Contract revert");
  const kept = await say(revert, owner, { user: "A page", answer: "Done", changes: [page("Home", "One")] });
  await say(revert, owner, { user: "Another", answer: "Done", changes: [page("Home", "Two")] });
  const photoApp = await newApp(world.actors.builderA, {
    content: {
      gptPrompt: "Rate the outfit in [outfit].",
      fields: [{ name: "outfit", label: "Your outfit", type: "photo", required: true, options: [] }],
    },
  });
  await db().insert(appSettings).values({ appId: world.appA.id, settings: {} }).onConflictDoNothing();
  const fnApp = await createSpaceApp(owner, "Contract functions");
  await say(fnApp, owner, {
    user: "A webhook",
    answer: "Done",
    changes: [
      {
        type: "add_file",
        path: "functions/hello.ts",
        content:
          'Deno.serve((req) => new Response("hello " + req.method, { headers: { "content-type": "text/plain" } }));\n',
      },
    ],
  });
  await setAppStatus(fnApp.id, "active");
  await deployAllFunctions({ ...fnApp, status: "active" }, world.actors.builderA.user.id);
  await connectProvider(world.actors.builderA, world.appA.id, "notion");
  return {
    ...world,
    revertApp: { id: revert.id, versionId: kept.versionId!, answerId: kept.answerId },
    photoApp,
    fnApp,
    throwaway: async () => {
      const b = await createBuilder();
      return { token: b.token, email: b.user.email };
    },
  };
}

describe("the API contract: every operation's example answers as the document declares", () => {
  let w: Fixture;
  beforeAll(async () => {
    w = await createFixture();
  }, 120_000);

  it("has a request for every operation of the document, and none for an operation it lacks", () => {
    expect(operations.map((o) => o.name).filter((n) => !CASES[n])).toEqual([]);
    expect(Object.keys(CASES).filter((n) => !byName.has(n))).toEqual([]);
  });

  const results: { name: string; status: number; problems: string[] }[] = [];

  it.each(operations.map((o) => [o.name, o] as const))("%s", async (name, ref: OperationRef) => {
    const c = CASES[name] ?? {};
    const as = c.as ?? "builderA";
    const actor = as === "anonymous" ? undefined : w.actors[as];
    const r = { token: actor?.token, ...(await c.request?.(w, exampleOf(ref.op))) };
    // An operation with a JSON body and no request of its own sends its example.
    if (r.body === undefined && r.bytes === undefined && ref.op.requestBody?.content["application/json"])
      r.body = exampleOf(ref.op);
    const answer = await send(ref, r);
    const problems = checker.problems(ref, answer);
    results.push({ name, status: answer.status, problems });
    expect(problems, `${problems.join("\n")}\n${answer.text.slice(0, 300)}`).toEqual([]);
    const ok = answer.status >= 200 && answer.status < 400;
    expect(ok, `${name} answered ${answer.status}: ${answer.text.slice(0, 500)}`).toBe(true);
    c.check?.(answer);
  });
});
