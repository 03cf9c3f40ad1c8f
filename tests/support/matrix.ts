// The authorization matrix: one row per exported handler of every app/api/**/route.ts, with the
// status class each kind of caller must get. tests/integration/authorization-matrix.test.ts runs
// every row for every actor, and fails when a route file or a handler has no row: a new route
// must say here who may call it.

import crypto from "node:crypto";
import { expect } from "vitest";
import { db } from "../../db/client";
import { insertRuntimeRecords } from "../../db/queries/app-data";
import { insertApp, insertTool } from "../../db/queries/apps";
import { insertContextItem } from "../../db/queries/context";
import { createEntityImport } from "../../db/queries/entity-imports";
import { insertEntityRecords, listEntityRecords } from "../../db/queries/entity-records";
import { type App, type ContextItem, type Tool, toolRuns } from "../../db/schema";
import { startSession } from "../../lib/auth/sessions";
import { messages } from "../../lib/messages";
import { saveSecrets } from "../../lib/secrets/secrets";
import { hashContent } from "../../lib/space/files";
import { publish, setEntity, taskSchema } from "./app-data";
import { createBuilder, createEndUser, createPublishedApp, STRONG_PASSWORD, uniqueEmail } from "./factories";
import { multipartOf } from "./http";
import { createSpaceApp, page, say, type TurnResult } from "./space";

export const ACTORS = [
  "anonymous",
  "builderA",
  "builderB",
  "unverified",
  "endUserA",
  "endUserB",
  "admin",
] as const;
export type ActorName = (typeof ACTORS)[number];
export type SignedInActor = Exclude<ActorName, "anonymous">;

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** "2xx" and "3xx" are classes; a number is an exact status. */
export type Expected = "2xx" | "3xx" | 400 | 401 | 403 | 404 | 409 | 429;

type ActorInfo = Awaited<ReturnType<typeof createBuilder>>;

export type World = {
  /** published, owned by builderA */
  appA: App;
  /** published, owned by builderB */
  appB: App;
  actors: Record<SignedInActor, ActorInfo>;
  /** another session of builder A, for the row that ends one session */
  builderASessionId: string;
  /** a generated app of builder A, with one tool */
  genAppA: App;
  toolA: Tool;
  /** apps and tools of builder A that rows delete, one per successful call */
  spareApps: App[];
  spareTools: Tool[];
  /** a data source of app A, and spare ones that the delete rows use up */
  contextItemA: ContextItem;
  spareContextItems: ContextItem[];
  /** a run of app A, grounded in one excerpt of contextItemA (score 2.5) */
  runA: { id: string };
  /** a space app of builder A with two exchanges, each answer making a version */
  spaceAppA: App;
  spaceTurns: [TurnResult, TurnResult];
  /** Records of spaceAppA's Note entity. */
  spareRecordIds: string[];
  spareSecretKeys: string[];
  /** A record of spaceAppA's Note entity that the panel's cell edit changes (never deleted). */
  editedRecordId: string;
  /** A CSV import into spaceAppA's Note entity (queued, never run). */
  noteImportId: string;
  /** An end user of spaceAppA (the Users view of its Database panel). */
  spaceEndUserA: { id: string };
  /** a builder nobody else uses, for the rows that sign in with a password */
  loginUser: { email: string; password: string };
  /**
   * A published space app of builder A whose own code's data API the app-token rows call: its
   * Task entity is for the app's admins only (read and write), with a record by builder A, and
   * spare ones of builder A that the delete rows use up.
   */
  dataApp: App;
  dataRecordId: string;
  spareDataRecordIds: string[];
  /**
   * A space app of builder A for the Code panel's rows: pages/Home.jsx (CODE_HOME) that the
   * save row edits, and spare components that the delete row takes one per admin credential.
   */
  codeAppA: App;
  spareCodeFiles: string[];
};

/** The Home page of codeAppA as the world makes it: the revision the save row names. */
export const CODE_HOME = "export default function Home() {\n  return <main>Code</main>;\n}\n";

export type RequestSpec = {
  path: string;
  params?: Record<string, string | string[]>;
  body?: unknown;
  /** A body sent as is (a form's text), with its content type among `headers`. */
  rawBody?: string;
  headers?: Record<string, string>;
};

export type Answer = { status: number; headers: Headers; json: unknown };

/**
 * How a signed-in actor's credential rides along. Our routes read both; Auth.js reads the cookie.
 * The routes of a space app's own code (rows with `appToken`) read neither: their credential is
 * the app token the actor's session gets for that app ("appToken", sent as the bearer).
 */
export type Via = "bearer" | "cookie" | "appToken";

export type Row = {
  file: string;
  method: HttpMethod;
  /** who may call it, in a few words */
  who: string;
  request: (w: World, actor: ActorName) => RequestSpec;
  expect: Record<ActorName, Expected>;
  /** the call ends sessions: each actor calls it with a session of its own, opened for this row */
  freshSession?: boolean;
  /**
   * A route of a space app's own code (auth "appToken"; the app is the request's `appId`). `expect`
   * is what each actor gets with the app token its session gets for the app (POST
   * .../runtime/token; an actor who gets none sends none, and is anonymous). Each signed-in actor
   * also sends its session's own token as the bearer, which is no app token (`sessionBearer`:
   * what that gets), and its cookie, which is never read (it gets what anonymous gets).
   */
  appToken?: { sessionBearer: Expected };
  /** extra assertions on an answer (e.g. tenant isolation: the data is the caller's own) */
  check?: (res: Answer, actor: ActorName, via: Via | null, w: World) => void;
};

// ---- expectation builders ----

export const everyone = (e: Expected): Record<ActorName, Expected> => ({
  anonymous: e,
  builderA: e,
  builderB: e,
  unverified: e,
  endUserA: e,
  endUserB: e,
  admin: e,
});
/** auth: "user" — any signed-in user, builder or end user */
export const signedIn = (e: Expected = "2xx") => ({ ...everyone(e), anonymous: 401 as const });
/** auth: "builder" — builders of the platform with a verified address; end users of apps are refused */
export const buildersOnly = (e: Expected = "2xx") => ({
  ...signedIn(e),
  unverified: 403 as const,
  endUserA: 403 as const,
  endUserB: 403 as const,
});
/** auth: "admin" */
export const adminsOnly = (e: Expected = "2xx") => ({ ...buildersOnly(403), admin: e });
/** a builder route about app A: its owner (and admins) only; another builder sees no such app */
export const ownerOfAppA = (e: Expected = "2xx", otherBuilder: Expected = 404) => ({
  ...buildersOnly(e),
  builderB: otherBuilder,
});

export async function createWorld(): Promise<World> {
  const builderA = await createBuilder();
  const builderB = await createBuilder();
  const admin = await createBuilder({ isAdmin: true });
  // A builder who signed up but has not verified their address yet.
  const unverified = await createBuilder({ verified: false });
  const appA = await createPublishedApp(builderA.account.accountId, "Matrix App A");
  const appB = await createPublishedApp(builderB.account.accountId, "Matrix App B");
  const endUserA = await createEndUser(appA.id);
  const endUserB = await createEndUser(appB.id);
  const login = await createBuilder();
  const spare = await startSession(builderA.user, { userAgent: "matrix" });
  const owner = builderA.account.accountId;
  const genAppA = await insertApp({ ownerAccountId: owner, type: "generated", header: "Matrix Generated A" });
  const newTool = (appId: string, i: number) =>
    insertTool({ appId, title: `Tool ${i}`, path: `tool-${i}`, position: i, content: {} });
  const toolA = await newTool(genAppA.id, 0);
  // Each row that deletes succeeds for two actors (builder A, admin) over two credentials.
  const spareApps = await Promise.all(
    [1, 2, 3, 4, 5, 6].map(() => insertApp({ ownerAccountId: owner, header: "Spare" })),
  );
  const spareTools = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => newTool(genAppA.id, i)));
  const newContextItem = (name: string) =>
    insertContextItem({
      appId: appA.id,
      name,
      type: "txt",
      source: "local files",
      status: "synced",
      size: 4,
      content: "text",
    });
  const contextItemA = await newContextItem("Matrix item");
  const spareContextItems = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => newContextItem(`Spare ${i}`)));
  const [runA] = await db()
    .insert(toolRuns)
    .values({
      appId: appA.id,
      kind: "visitor",
      subject: "visitor:matrix",
      inputs: { input: "text" },
      model: "gpt-4o-mini",
      status: "success",
      context: {
        kind: "chunks",
        excerpts: [
          { itemId: contextItemA.id, itemName: "Matrix item", position: 0, text: "text", score: 2.5 },
        ],
      },
    })
    .returning({ id: toolRuns.id });
  const spaceAppA = await createSpaceApp(owner, "Matrix Space A");
  const spaceTurns: [TurnResult, TurnResult] = [
    await say(spaceAppA, owner, {
      user: "A home page and notes",
      answer: "Done",
      changes: [page("Home", "Hello"), { type: "add_entity", name: "Note", content: '{"type":"object"}' }],
    }),
    await say(spaceAppA, owner, { user: "Say bye", answer: "Done", changes: [page("Home", "Bye")] }),
  ];
  // Records of the Note entity: the DELETE row takes one per actor allowed to delete.
  await insertEntityRecords(
    spaceAppA.id,
    "Note",
    [1, 2, 3, 4, 5, 6].map((i) => ({ creatorId: owner, data: { text: `Note ${i}` } })),
  );
  const spareRecordIds = (await listEntityRecords(spaceAppA.id, "Note", 10, null)).map((r) => r.id);
  const [edited] = await insertRuntimeRecords(spaceAppA.id, "Note", [
    { creatorId: owner, data: { text: "Edited" } },
  ]);
  const noteImport = await createEntityImport({
    appId: spaceAppA.id,
    entity: "Note",
    creatorId: owner,
    mapping: [{ csvHeader: "text", schemaField: "text", dataType: "text", splitCharacter: null }],
    csv: "text\nImported",
  });
  // Secrets of the space app: the DELETE row takes one per actor allowed to delete.
  const spareSecretKeys = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `MATRIX_SPARE_${i}`);
  await saveSecrets(spaceAppA, {
    secrets: spareSecretKeys.map((key) => ({ key, value: `matrix value of ${key}` })),
  });
  const dataApp = await createSpaceApp(owner, "Matrix Data A");
  await setEntity(dataApp, owner, "Task", taskSchema("admin", "admin"));
  await publish(dataApp);
  // Each delete row succeeds for builder A and the admin, and takes a spare for each of their three
  // credentials (only the app token deletes it).
  const dataRecords = await insertRuntimeRecords(
    dataApp.id,
    "Task",
    [0, 1, 2, 3, 4, 5, 6].map((i) => ({
      creatorId: builderA.user.id,
      data: { title: `Task ${i}`, done: false },
    })),
  );
  const [dataRecord, ...spareDataRecords] = dataRecords.map((r) => r.id);
  const spaceEndUserA = (await createEndUser(spaceAppA.id)).user;
  const codeAppA = await createSpaceApp(owner, "Matrix Code A");
  const spareCodeFiles = [0, 1, 2, 3, 4, 5].map((i) => `components/Spare${i}.jsx`);
  await say(codeAppA, owner, {
    user: "A home page and spare components",
    answer: "Done",
    changes: [
      { type: "add_file", path: "pages/Home.jsx", content: CODE_HOME },
      ...spareCodeFiles.map((path) => ({
        type: "add_file" as const,
        path,
        content: "export const x = 1;\n",
      })),
    ],
  });
  return {
    appA,
    appB,
    genAppA,
    toolA,
    spareApps,
    spareTools,
    contextItemA,
    spareContextItems,
    runA: runA!,
    spaceAppA,
    spaceTurns,
    spareRecordIds,
    spareSecretKeys,
    editedRecordId: edited!.id,
    noteImportId: noteImport.id,
    spaceEndUserA,
    builderASessionId: spare.claims.sid,
    actors: { builderA, builderB, unverified, endUserA, endUserB, admin },
    loginUser: { email: login.user.email, password: STRONG_PASSWORD },
    dataApp,
    dataRecordId: dataRecord!,
    spareDataRecordIds: spareDataRecords,
    codeAppA,
    spareCodeFiles,
  };
}

const garbageCode = "not-a-real-code";

// ---- the data API of the world's published space app (dataApp) ----

/** The actors whose app token of dataApp makes them its admins: its owner and the platform admin. */
const dataAdmin = (actor: ActorName) => actor === "builderA" || actor === "admin";
const forDataAdmins = (e: Expected, others: Expected) => ({ ...everyone(others), builderA: e, admin: e });
const taskData = (w: World, rest = ""): RequestSpec => ({
  path: `/api/apps/${w.dataApp.id}/data/Task${rest}`,
  params: { appId: w.dataApp.id, entity: "Task" },
});
const taskRecord = (w: World, recordId: string): RequestSpec => ({
  path: `/api/apps/${w.dataApp.id}/data/Task/${recordId}`,
  params: { appId: w.dataApp.id, entity: "Task", recordId },
});
const runtimeMe = (w: World): RequestSpec => ({
  path: `/api/apps/${w.dataApp.id}/runtime/me`,
  params: { appId: w.dataApp.id },
});
/** A preflight as the sandboxed frame's browser sends it. */
const preflight = (method: string) => ({ origin: "null", "access-control-request-method": method });
function checkPreflight(res: Answer) {
  expect(res.status).toBe(204);
  expect(res.headers.get("access-control-allow-origin")).toBe("null");
  expect(res.headers.get("access-control-allow-credentials")).toBeNull();
}

export const rows: Row[] = [
  // Auth.js. Runs in-process (vitest inlines next-auth so that its "next/server" import resolves).
  {
    file: "app/api/auth/[...nextauth]/route.ts",
    method: "GET",
    who: "anybody; the session of the cookie, if any",
    request: () => ({ path: "/api/auth/session" }),
    expect: everyone("2xx"),
    check: (res, actor, via, w) => {
      const body = res.json as { user?: { id: string } } | null;
      if (actor === "anonymous" || via === "bearer") expect(body).toBeNull();
      else expect(body?.user?.id).toBe(w.actors[actor].user.id);
    },
  },
  {
    file: "app/api/auth/[...nextauth]/route.ts",
    method: "POST",
    who: "anybody, with Auth.js's CSRF token (none here: refused with a redirect)",
    request: () => ({ path: "/api/auth/callback/token", body: { customToken: garbageCode } }),
    expect: everyone("3xx"),
    check: (res) => {
      expect(res.headers.get("location")).toContain("error=MissingCSRF");
    },
  },
  {
    file: "app/api/app/paidPlans/route.ts",
    method: "GET",
    who: "builders; the plan catalogue is the same for every app, so any builder may ask",
    request: (w) => ({ path: `/api/app/paidPlans?appId=${w.appA.id}` }),
    expect: buildersOnly(),
  },
  // ---- apps and the editor: builder B never sees builder A's app (404) ----
  {
    file: "app/api/apps/route.ts",
    method: "GET",
    who: "builders: their own apps only",
    request: () => ({ path: "/api/apps" }),
    expect: buildersOnly(),
    check: (res, actor, _via, w) => {
      if (actor !== "builderB") return;
      const ids = (res.json as { apps: { appId: string }[] }).apps.map((a) => a.appId);
      expect(ids).toContain(w.appB.id);
      expect(ids).not.toContain(w.appA.id);
    },
  },
  {
    file: "app/api/apps/route.ts",
    method: "POST",
    who: "builders, for themselves",
    request: () => ({
      path: "/api/apps",
      body: {
        appId: crypto.randomUUID(),
        appType: "tool",
        app: { header: "Matrix new", appBuilderVersion: 4 },
      },
    }),
    expect: buildersOnly(),
  },
  {
    file: "app/api/context/items/route.ts",
    method: "GET",
    who: "the app's owner and admins (the app named by the query)",
    request: (w) => ({ path: `/api/context/items?appId=${w.appA.id}&status=unsynced` }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/context/events/route.ts",
    method: "GET",
    // Without `Accept: text/event-stream` the route answers the current state once, as JSON, so
    // the row ends; the stream itself is tested in tests/integration/context-events.test.ts.
    who: "the app's owner and admins (the app named by the query)",
    request: (w) => ({ path: `/api/context/events?appId=${w.appA.id}` }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/context/ingest/text/route.ts",
    method: "POST",
    who: "the app's owner and admins (an empty text here: 400, nothing added)",
    request: (w) => ({ path: `/api/context/ingest/text?appId=${w.appA.id}`, body: { context: " " } }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/context/ingest/file/route.ts",
    method: "POST",
    who: "the app's owner and admins (app A, on lite, already holds its item: 403, nothing stored)",
    request: (w) => ({ path: `/api/context/ingest/file?appId=${w.appA.id}&name=list.csv` }),
    expect: ownerOfAppA(403),
  },
  {
    file: "app/api/context/[id]/route.ts",
    method: "PATCH",
    who: "the owner and admins of the item's app; anybody else sees no such item",
    request: (w) => ({
      path: `/api/context/${w.contextItemA.id}`,
      params: { id: w.contextItemA.id },
      body: { name: "Renamed item" },
    }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/context/[id]/route.ts",
    method: "DELETE",
    who: "the owner and admins of the item's app; anybody else sees no such item",
    request: (w, actor) => {
      const item = ["builderA", "admin"].includes(actor)
        ? w.spareContextItems.pop()!
        : w.spareContextItems[0]!;
      return { path: `/api/context/${item.id}`, params: { id: item.id } };
    },
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/tools/[appId]/replaceDataItem/route.ts",
    method: "POST",
    who: "the app's owner and admins (an item replaced by itself here: 400, nothing deleted)",
    request: (w) => ({
      path: `/api/tools/${w.appA.id}/replaceDataItem`,
      params: { appId: w.appA.id },
      body: { oldItemId: w.contextItemA.id, newItemId: w.contextItemA.id },
    }),
    expect: ownerOfAppA(400),
  },
  // ---- connectors (Notion, Google Drive) and connector items ----
  {
    file: "app/api/context/ingest/metadata/route.ts",
    method: "POST",
    who: "the app's owner and admins (a website address that is not one here: 400, nothing added)",
    request: (w) => ({
      path: `/api/context/ingest/metadata?appId=${w.appA.id}`,
      body: { contextItems: [{ source: "web scraper", url: "not a web address" }] },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/context/[id]/sync/route.ts",
    method: "POST",
    who: "the owner and admins of the item's app (a text item cannot be synced: 400); anybody else sees no such item",
    request: (w) => ({ path: `/api/context/${w.contextItemA.id}/sync`, params: { id: w.contextItemA.id } }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/integrations/fetchCarbonTokens/route.ts",
    method: "GET",
    who: "the app's owner and admins (the app named by the query)",
    request: (w) => ({ path: `/api/integrations/fetchCarbonTokens?appId=${w.appA.id}` }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/integrations/[provider]/authorize/route.ts",
    method: "GET",
    // A page for browsers; JSON when asked for. Checked by the route itself: a builder's session,
    // then the connect token (a made-up one here: 400).
    who: "builders with the connect token of their own account",
    request: () => ({
      path: "/api/integrations/notion/authorize?token=made-up",
      params: { provider: "notion" },
      headers: { accept: "application/json" },
    }),
    expect: buildersOnly(400),
  },
  {
    file: "app/api/integrations/[provider]/callback/route.ts",
    method: "GET",
    who: "builders, with a state signed for their own account (a made-up one here: 400)",
    request: () => ({
      path: "/api/integrations/notion/callback?code=made-up&state=made-up",
      params: { provider: "notion" },
      headers: { accept: "application/json" },
    }),
    expect: buildersOnly(400),
  },
  {
    file: "app/api/integrations/[provider]/files/route.ts",
    method: "GET",
    who: "the app's owner and admins (app A's owner has no Notion connection: 400)",
    request: (w) => ({
      path: `/api/integrations/notion/files?appId=${w.appA.id}`,
      params: { provider: "notion" },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/integrations/[provider]/route.ts",
    method: "DELETE",
    who: "builders, for their own connection (none here: nothing to forget, still ok)",
    request: () => ({ path: "/api/integrations/notion", params: { provider: "notion" } }),
    expect: buildersOnly(),
  },
  {
    file: "app/api/apps/claim/route.ts",
    method: "POST",
    who: "builders, with a genuine invitation (a made-up code: 400)",
    request: () => ({ path: "/api/apps/claim", body: { claimCode: `${crypto.randomUUID()}.forged` } }),
    expect: buildersOnly(400),
  },
  {
    file: "app/api/apps/[appId]/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({ path: `/api/apps/${w.appA.id}`, params: { appId: w.appA.id } }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/route.ts",
    method: "PATCH",
    who: "the app's owner and admins (a stale revision here: 409, nothing written)",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}`,
      params: { appId: w.appA.id },
      body: { baseRevision: 999, app: { header: "Overwritten?" } },
    }),
    expect: ownerOfAppA(409),
  },
  {
    file: "app/api/apps/[appId]/route.ts",
    method: "DELETE",
    who: "the app's owner and admins",
    request: (w, actor) => {
      const app = ["builderA", "admin"].includes(actor) ? w.spareApps.pop()! : w.spareApps[0]!;
      return { path: `/api/apps/${app.id}`, params: { appId: app.id } };
    },
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/style/route.ts",
    method: "POST",
    who: "the app's owner and admins (a stale revision here: 409)",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/style`,
      params: { appId: w.appA.id },
      body: { baseRevision: 999, appStyle: { styleName: "dark" } },
    }),
    expect: ownerOfAppA(409),
  },
  {
    file: "app/api/apps/[appId]/settings/route.ts",
    method: "POST",
    who: "the app's owner on a paid plan, and admins (builder A is on lite: 403; admin: stale revision 409)",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/settings`,
      params: { appId: w.appA.id },
      body: { baseRevision: 999, appSettings: { dailyUserLimit: 5 } },
    }),
    expect: { ...ownerOfAppA(409), builderA: 403 },
  },
  {
    file: "app/api/admin/builders/route.ts",
    method: "GET",
    who: "admins",
    request: () => ({ path: "/api/admin/builders?q=example.com" }),
    expect: adminsOnly(),
  },
  {
    file: "app/api/admin/builders/[accountId]/route.ts",
    method: "PATCH",
    who: "admins (builder B keeps the plan it has)",
    request: (w) => ({
      path: `/api/admin/builders/${w.actors.builderB.account.accountId}`,
      params: { accountId: w.actors.builderB.account.accountId },
      body: { plan: "lite" },
    }),
    expect: adminsOnly(),
  },
  {
    file: "app/api/apps/[appId]/settings/claimInvitation/route.ts",
    method: "GET",
    who: "admins (app A is not claimable: 400)",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/settings/claimInvitation`,
      params: { appId: w.appA.id },
    }),
    expect: adminsOnly(400),
  },
  {
    file: "app/api/apps/[appId]/status/route.ts",
    method: "POST",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/status`,
      params: { appId: w.appA.id },
      body: { status: "active" },
    }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/run/route.ts",
    method: "POST",
    // A draft app's tool: only its builder (and admins) may run it, as a preview; to anybody else
    // there is no such app. Empty inputs here (400), so no model is asked.
    who: "anybody for a published app; a draft only for its owner and admins (nothing filled in here: 400)",
    request: (w) => ({
      path: `/api/apps/${w.genAppA.id}/run`,
      params: { appId: w.genAppA.id },
      body: { toolId: w.toolA.id, inputs: {} },
    }),
    expect: { ...everyone(404), builderA: 400, admin: 400 },
    check: (res, actor) => {
      const code = (res.json as { error: { code: string } }).error.code;
      expect(code).toBe(actor === "builderA" || actor === "admin" ? "INPUT_EMPTY" : "NOT_FOUND");
    },
  },
  {
    file: "app/api/apps/[appId]/run/photos/route.ts",
    method: "POST",
    // Who may upload a photo for a run is who may run the tool: a draft only for its builder.
    who: "as for running the tool: anybody for a published app, a draft only for its owner and admins (a tool without a photo field here: 400, nothing stored)",
    request: (w) => ({
      path: `/api/apps/${w.genAppA.id}/run/photos?toolId=${w.toolA.id}`,
      params: { appId: w.genAppA.id },
      body: {},
    }),
    expect: { ...everyone(404), builderA: 400, admin: 400 },
    check: (res, actor) => {
      const code = (res.json as { error: { code: string } }).error.code;
      expect(code).toBe(actor === "builderA" || actor === "admin" ? "NO_PHOTO_FIELD" : "NOT_FOUND");
    },
  },
  {
    file: "app/api/apps/[appId]/tools/route.ts",
    method: "POST",
    who: "the app's owner and admins (a path with spaces here: 400)",
    request: (w) => ({
      path: `/api/apps/${w.genAppA.id}/tools`,
      params: { appId: w.genAppA.id },
      body: { title: "New", path: "not a path" },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/apps/[appId]/tools/order/route.ts",
    method: "PUT",
    who: "the app's owner and admins (an incomplete order here: 400)",
    request: (w) => ({
      path: `/api/apps/${w.genAppA.id}/tools/order`,
      params: { appId: w.genAppA.id },
      body: { toolIds: [] },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/apps/[appId]/tools/[toolId]/route.ts",
    method: "PATCH",
    who: "the app's owner and admins (a stale revision here: 409)",
    request: (w) => ({
      path: `/api/apps/${w.genAppA.id}/tools/${w.toolA.id}`,
      params: { appId: w.genAppA.id, toolId: w.toolA.id },
      body: { baseRevision: 999, tool: { title: "Overwritten?" } },
    }),
    expect: ownerOfAppA(409),
  },
  {
    file: "app/api/apps/[appId]/tools/[toolId]/route.ts",
    method: "DELETE",
    who: "the app's owner and admins",
    request: (w, actor) => {
      const tool = ["builderA", "admin"].includes(actor) ? w.spareTools.pop()! : w.spareTools[0]!;
      return {
        path: `/api/apps/${w.genAppA.id}/tools/${tool.id}`,
        params: { appId: w.genAppA.id, toolId: tool.id },
      };
    },
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/uploads/route.ts",
    method: "POST",
    who: "the app's owner and admins; the body here is no image (400), and nothing is stored",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/uploads?kind=logo`,
      params: { appId: w.appA.id },
      body: {},
    }),
    expect: ownerOfAppA(400),
    check: (res, actor) => {
      if (actor === "builderA" || actor === "admin")
        expect((res.json as { error: { message: string } }).error.message).toBe(messages.uploadNotAnImage);
    },
  },
  {
    file: "app/api/apps/[appId]/uploads/[uploadId]/route.ts",
    method: "DELETE",
    who: "the app's owner and admins (no such upload here: 'File not found'; to others no such app)",
    request: (w) => {
      const uploadId = crypto.randomUUID();
      return { path: `/api/apps/${w.appA.id}/uploads/${uploadId}`, params: { appId: w.appA.id, uploadId } };
    },
    expect: ownerOfAppA(404),
    check: (res, actor) => {
      const message = (res.json as { error: { message: string } }).error.message;
      if (actor === "builderA" || actor === "admin") expect(message).toBe(messages.fileNotFound);
      if (actor === "builderB") expect(message).toBe(messages.appNotFound);
    },
  },
  // ---- space apps: chat and versions: the app's owner and admins; nobody else sees the app ----
  {
    file: "app/api/apps/[appId]/versions/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({ path: `/api/apps/${w.spaceAppA.id}/versions`, params: { appId: w.spaceAppA.id } }),
    expect: ownerOfAppA(),
    check: (res, actor, _via, w) => {
      if (actor !== "builderA" && actor !== "admin") return;
      const ids = (res.json as { versions: { id: string }[] }).versions.map((v) => v.id);
      expect(ids).toEqual([w.spaceTurns[1].versionId, w.spaceTurns[0].versionId]);
    },
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}`,
        params: { appId: w.spaceAppA.id, versionId },
      };
    },
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/entities/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({ path: `/api/apps/${w.spaceAppA.id}/entities`, params: { appId: w.spaceAppA.id } }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { entities: { name: string }[] }).entities.map((e) => e.name)).toEqual(["Note"]);
    },
  },
  {
    file: "app/api/apps/[appId]/entities/[entity]/records/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/entities/Note/records`,
      params: { appId: w.spaceAppA.id, entity: "Note" },
    }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { records: unknown[] }).records.length).toBeGreaterThan(0);
    },
  },
  {
    file: "app/api/apps/[appId]/entities/[entity]/records/route.ts",
    method: "POST",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/entities/Note/records`,
      params: { appId: w.spaceAppA.id, entity: "Note" },
      body: { text: "Added in the panel" },
    }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { data: unknown }).data).toEqual({ text: "Added in the panel" });
    },
  },
  {
    file: "app/api/apps/[appId]/entities/[entity]/records/[recordId]/route.ts",
    method: "PATCH",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/entities/Note/records/${w.editedRecordId}`,
      params: { appId: w.spaceAppA.id, entity: "Note", recordId: w.editedRecordId },
      body: { field: "text", value: "Edited in the panel" },
    }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/entities/[entity]/records/[recordId]/route.ts",
    method: "DELETE",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w, actor) => {
      const id = ["builderA", "admin"].includes(actor) ? w.spareRecordIds.pop()! : w.spareRecordIds[0]!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/entities/Note/records/${id}`,
        params: { appId: w.spaceAppA.id, entity: "Note", recordId: id },
      };
    },
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/secrets/route.ts",
    method: "GET",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({ path: `/api/apps/${w.spaceAppA.id}/secrets`, params: { appId: w.spaceAppA.id } }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      const { secrets } = res.json as { secrets: { key: string; value: string }[] };
      expect(secrets.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.json)).not.toContain("matrix value");
    },
  },
  {
    file: "app/api/apps/[appId]/secrets/route.ts",
    method: "POST",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/secrets`,
      params: { appId: w.spaceAppA.id },
      body: { secrets: [{ key: "MATRIX_POSTED", value: "posted matrix value" }] },
    }),
    expect: ownerOfAppA(),
    check: (res) => expect(JSON.stringify(res.json)).not.toContain("matrix value"),
  },
  {
    file: "app/api/apps/[appId]/secrets/[key]/route.ts",
    method: "DELETE",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w, actor) => {
      const key = ["builderA", "admin"].includes(actor) ? w.spareSecretKeys.pop()! : w.spareSecretKeys[0]!;
      return { path: `/api/apps/${w.spaceAppA.id}/secrets/${key}`, params: { appId: w.spaceAppA.id, key } };
    },
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/functions/route.ts",
    method: "GET",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({ path: `/api/apps/${w.spaceAppA.id}/functions`, params: { appId: w.spaceAppA.id } }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/merge/route.ts",
    method: "POST",
    who: "the app's owner and admins (only a deletion sent: 400, nothing merged); anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/merge`,
      params: { appId: w.spaceAppA.id },
      body: { files: [{ path: "pages/Home.jsx", content: null }] },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/apps/[appId]/functions/deploy/route.ts",
    method: "POST",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/functions/deploy`,
      params: { appId: w.spaceAppA.id },
    }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/functions/[name]/deploy/route.ts",
    method: "POST",
    who: "the app's owner and admins (no such function file here: 404); anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/functions/matrix-none/deploy`,
      params: { appId: w.spaceAppA.id, name: "matrix-none" },
    }),
    expect: ownerOfAppA(404),
  },
  ...(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const).map(
    (method): Row => ({
      file: "app/api/apps/[appId]/functions/[name]/route.ts",
      method,
      who: "anybody (a webhook URL): only a published app's deployed functions answer (none here: 404)",
      request: (w) => ({
        path: `/api/apps/${w.dataApp.id}/functions/matrix-none`,
        params: { appId: w.dataApp.id, name: "matrix-none" },
      }),
      expect: everyone(404),
    }),
  ),
  {
    file: "app/api/apps/[appId]/entities/[entity]/imports/route.ts",
    method: "POST",
    who: "the app's owner and admins (a form without its file: 400, nothing stored); anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/entities/Note/imports`,
      params: { appId: w.spaceAppA.id, entity: "Note" },
      ...multipartOf({
        mapping: JSON.stringify([
          { csvHeader: "text", schemaField: "text", dataType: "text", splitCharacter: null },
        ]),
      }),
    }),
    expect: ownerOfAppA(400),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { error: { message: string } }).error.message).toBe(messages.csvEmpty);
    },
  },
  {
    file: "app/api/apps/[appId]/entities/[entity]/imports/[importId]/route.ts",
    method: "GET",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/entities/Note/imports/${w.noteImportId}`,
      params: { appId: w.spaceAppA.id, entity: "Note", importId: w.noteImportId },
    }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { status: string }).status).toBe("queued");
    },
  },
  {
    file: "app/api/apps/[appId]/entities/[entity]/export/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/entities/Note/export`,
      params: { appId: w.spaceAppA.id, entity: "Note" },
    }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect(res.headers.get("content-type")).toContain("text/csv");
    },
  },
  // ---- space apps: the app's end users (the Database panel's Users view): its owner and admins ----
  {
    file: "app/api/apps/[appId]/users/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({ path: `/api/apps/${w.spaceAppA.id}/users`, params: { appId: w.spaceAppA.id } }),
    expect: ownerOfAppA(),
    check: (res, actor, _via, w) => {
      if (actor !== "builderA" && actor !== "admin") return;
      // This app's end users only: never a builder, never an end user of another app.
      const ids = (res.json as { users: { id: string }[] }).users.map((u) => u.id);
      expect(ids).toEqual([w.spaceEndUserA.id]);
    },
  },
  {
    file: "app/api/apps/[appId]/users/[userId]/route.ts",
    method: "PATCH",
    who: "the app's owner and admins; anybody else sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/users/${w.spaceEndUserA.id}`,
      params: { appId: w.spaceAppA.id, userId: w.spaceEndUserA.id },
      body: { role: "admin" },
    }),
    expect: ownerOfAppA(),
    check: (res, actor, _via, w) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect(res.json).toMatchObject({ id: w.spaceEndUserA.id, role: "admin" });
    },
  },
  {
    file: "app/api/apps/[appId]/files/history/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/files/history?path=pages/Home.jsx`,
      params: { appId: w.spaceAppA.id },
    }),
    expect: ownerOfAppA(),
    check: (res, actor, _via, w) => {
      if (actor !== "builderA" && actor !== "admin") return;
      const entries = (res.json as { entries: { version: { id: string }; change: string }[] }).entries;
      expect(entries.map((e) => [e.version.id, e.change])).toEqual([
        [w.spaceTurns[1].versionId, "modified"],
        [w.spaceTurns[0].versionId, "added"],
      ]);
    },
  },
  // ---- the Code panel: the app's owner and admins read; only admins save and delete ----
  {
    file: "app/api/apps/[appId]/files/route.ts",
    method: "GET",
    who: "the app's owner and admins (only admins may edit)",
    request: (w) => ({ path: `/api/apps/${w.codeAppA.id}/files`, params: { appId: w.codeAppA.id } }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      const answer = res.json as { canEdit: boolean; files: { path: string }[] };
      expect(answer.canEdit).toBe(actor === "admin");
      expect(answer.files.map((f) => f.path)).toContain("pages/Home.jsx");
    },
  },
  {
    file: "app/api/apps/[appId]/files/update/route.ts",
    method: "POST",
    who: "admins only: the app's owner reads its code (a second save of the same text changes nothing)",
    request: (w) => ({
      path: `/api/apps/${w.codeAppA.id}/files/update`,
      params: { appId: w.codeAppA.id },
      body: {
        file: { id: "pages/Home.jsx", content: CODE_HOME.replace("Code", "Edited") },
        revision: hashContent(CODE_HOME),
      },
    }),
    expect: { ...ownerOfAppA(), builderA: 403 },
    check: (res, actor) => {
      if (actor === "builderA") {
        expect((res.json as { error: { message: string } }).error.message).toBe(messages.codeEditAdminOnly);
      }
    },
  },
  {
    file: "app/api/apps/[appId]/files/delete/route.ts",
    method: "POST",
    who: "admins only: the app's owner reads its code",
    request: (w, actor) => ({
      path: `/api/apps/${w.codeAppA.id}/files/delete`,
      params: { appId: w.codeAppA.id },
      body: { fileId: actor === "admin" ? w.spareCodeFiles.pop()! : w.spareCodeFiles[0]! },
    }),
    expect: { ...ownerOfAppA(), builderA: 403 },
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/file/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/file?path=pages/Home.jsx`,
        params: { appId: w.spaceAppA.id, versionId },
      };
    },
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { content: string }).content).toContain("Hello");
    },
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/restore/route.ts",
    method: "POST",
    who: "the app's owner and admins (a message that did not make the version here: 400, nothing restored)",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/restore`,
        params: { appId: w.spaceAppA.id, versionId },
        body: { messageId: w.spaceTurns[0].userMessageId },
      };
    },
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/undo-restore/route.ts",
    method: "POST",
    who: "the app's owner and admins (an answer that is no restore here: 400)",
    request: (w) => {
      const versionId = w.spaceTurns[1].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/undo-restore`,
        params: { appId: w.spaceAppA.id, versionId },
        body: { messageId: w.spaceTurns[1].answerId },
      };
    },
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/revert/route.ts",
    method: "POST",
    who: "the app's owner and admins (later messages and no confirm here: 409, nothing removed)",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/revert`,
        params: { appId: w.spaceAppA.id, versionId },
        body: { messageId: w.spaceTurns[0].answerId },
      };
    },
    expect: ownerOfAppA(409),
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/preview/route.ts",
    method: "GET",
    who: "the app's owner and admins: a short-lived signed link to the version's sandboxed preview",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/preview`,
        params: { appId: w.spaceAppA.id, versionId },
      };
    },
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect((res.json as { build: { ok: boolean } }).build.ok).toBe(true);
    },
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/repair/route.ts",
    method: "POST",
    who: "the app's owner and admins: the model repairs the version's files with issues (nothing written)",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/repair`,
        params: { appId: w.spaceAppA.id, versionId },
        // An issue of no file of the version: nothing for the model to repair, so it is not asked.
        body: {
          initialIssues: [
            {
              message: "x",
              componentName: "Nowhere",
              file: "pages/Nowhere.jsx",
              detectorId: "runtime",
              severity: "error",
              line: null,
            },
          ],
        },
      };
    },
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect(res.json).toMatchObject({
        iterationsPerformed: 0,
        repairedFiles: [],
        unresolvedIssues: [expect.any(Object)],
      });
    },
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/validate/route.ts",
    method: "POST",
    who: "the app's owner and admins: the version's issues (build, lint, entity schemas, reported runtime errors)",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/validate`,
        params: { appId: w.spaceAppA.id, versionId },
        body: {},
      };
    },
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      expect(res.json).toMatchObject({
        issues: expect.any(Array),
        clientExecutionTimeMs: expect.any(Number),
      });
    },
  },
  {
    file: "app/api/apps/[appId]/versions/[versionId]/preview/document/route.ts",
    method: "GET",
    who: "whoever holds a signed preview link (none here): no session, cookie or bearer, ever opens it",
    request: (w) => {
      const versionId = w.spaceTurns[0].versionId!;
      return {
        path: `/api/apps/${w.spaceAppA.id}/versions/${versionId}/preview/document?token=forged`,
        params: { appId: w.spaceAppA.id, versionId },
      };
    },
    expect: everyone(403),
    check: (res) => {
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts allow-forms;/);
    },
  },
  {
    file: "app/api/apps/[appId]/rating/route.ts",
    method: "POST",
    who: "the app's owner and admins (a user message cannot be rated: 400, nothing stored)",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/rating`,
      params: { appId: w.spaceAppA.id },
      body: { messageId: w.spaceTurns[0].userMessageId, score: 5, feedback: [], comment: "" },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/apps/[appId]/chat/route.ts",
    method: "POST",
    // No intent in the body here (400): nothing is stored and no model is asked.
    who: "the app's owner and admins (a body with no message here: 400)",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/chat`,
      params: { appId: w.spaceAppA.id },
      body: {},
    }),
    expect: ownerOfAppA(400),
    check: (res, actor) => {
      const code = (res.json as { error: { code: string } }).error.code;
      if (actor === "builderA" || actor === "admin") expect(code).toBe("INVALID_INPUT");
    },
  },
  {
    file: "app/api/apps/[appId]/chat/history/route.ts",
    method: "GET",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.spaceAppA.id}/chat/history?fromMessageId=&limit=50`,
      params: { appId: w.spaceAppA.id },
    }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor === "builderA" || actor === "admin")
        expect((res.json as { messages: unknown[]; hasMore: boolean }).messages).toHaveLength(4);
    },
  },
  {
    file: "app/api/apps/[appId]/chat/activate/route.ts",
    method: "POST",
    who: "the app's owner and admins",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/chat/activate`,
      params: { appId: w.appA.id },
      body: { isActive: true },
    }),
    expect: ownerOfAppA(),
  },
  // ---- a space app's own code: its data API, with the app token of the app's signed-in user ----
  {
    file: "app/api/apps/[appId]/runtime/token/route.ts",
    method: "POST",
    who: "anybody, by their session: the app's owner and admins get an admin token, the app's end users their own, anybody else none",
    request: (w) => ({
      path: `/api/apps/${w.dataApp.id}/runtime/token`,
      params: { appId: w.dataApp.id },
      body: {},
    }),
    expect: everyone("2xx"),
    check: (res, actor) => {
      const answer = res.json as { token: string | null; user: { role: string } | null };
      if (actor === "builderA" || actor === "admin") {
        expect(answer.token).toEqual(expect.any(String));
        expect(answer.user?.role).toBe("admin");
      } else expect(answer).toEqual({ token: null, expiresAt: null, user: null });
    },
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/route.ts",
    method: "GET",
    who: "anybody; the read level picks the rows (Task: the app's admins; anybody else an empty list, no hint)",
    request: (w) => taskData(w),
    appToken: { sessionBearer: 401 },
    expect: everyone("2xx"),
    check: (res, actor, via, w) => {
      if (res.status !== 200) return;
      const { records } = res.json as { records: { id: string }[] };
      if (via === "appToken" && dataAdmin(actor)) expect(records.map((r) => r.id)).toContain(w.dataRecordId);
      else expect(res.json).toEqual({ records: [], nextCursor: null });
    },
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/route.ts",
    method: "POST",
    who: "as the write level says (Task: the app's admins; anonymous is asked to sign in, 401)",
    request: (w) => ({ ...taskData(w), body: { title: "Matrix task" } }),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins("2xx", 401),
    check: (res, actor, _via, w) => {
      if (res.status !== 200 || actor === "anonymous") return;
      expect((res.json as { creatorId: string }).creatorId).toBe(w.actors[actor].user.id);
    },
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/route.ts",
    method: "OPTIONS",
    who: "anybody: the CORS preflight of the app's frame (Origin null), which needs no credential",
    request: (w) => ({ ...taskData(w), headers: preflight("POST") }),
    appToken: { sessionBearer: "2xx" },
    expect: everyone("2xx"),
    check: checkPreflight,
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/bulk/route.ts",
    method: "POST",
    who: "as the write level says (Task: the app's admins; anonymous is asked to sign in, 401)",
    request: (w) => ({
      ...taskData(w, "/bulk"),
      body: { records: [{ title: "Bulk 1" }, { title: "Bulk 2" }] },
    }),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins("2xx", 401),
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/bulk/route.ts",
    method: "OPTIONS",
    who: "anybody: the CORS preflight of the app's frame (Origin null), which needs no credential",
    request: (w) => ({ ...taskData(w, "/bulk"), headers: preflight("POST") }),
    appToken: { sessionBearer: "2xx" },
    expect: everyone("2xx"),
    check: checkPreflight,
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/[recordId]/route.ts",
    method: "GET",
    who: "who may read the record (Task: the app's admins); to anybody else it does not exist",
    request: (w) => taskRecord(w, w.dataRecordId),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins("2xx", 404),
    check: (res, _actor, _via, w) => {
      if (res.status === 200) expect((res.json as { id: string }).id).toBe(w.dataRecordId);
    },
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/[recordId]/route.ts",
    method: "PATCH",
    who: "who may read and write the record (Task: the app's admins); to anybody else it does not exist",
    request: (w) => ({ ...taskRecord(w, w.dataRecordId), body: { done: true } }),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins("2xx", 404),
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/[recordId]/route.ts",
    method: "DELETE",
    who: "who may read and write the record (Task: the app's admins); to anybody else it does not exist",
    request: (w, actor) => taskRecord(w, dataAdmin(actor) ? w.spareDataRecordIds.pop()! : w.dataRecordId),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins("2xx", 404),
  },
  {
    file: "app/api/apps/[appId]/data/[entity]/[recordId]/route.ts",
    method: "OPTIONS",
    who: "anybody: the CORS preflight of the app's frame (Origin null), which needs no credential",
    request: (w) => ({ ...taskRecord(w, w.dataRecordId), headers: preflight("PATCH") }),
    appToken: { sessionBearer: "2xx" },
    expect: everyone("2xx"),
    check: checkPreflight,
  },
  {
    file: "app/api/apps/[appId]/runtime/me/route.ts",
    method: "GET",
    who: "the user the app token names (the builder as the app's admin); anonymous 401",
    request: (w) => runtimeMe(w),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins("2xx", 401),
    check: (res, actor, _via, w) => {
      if (res.status !== 200 || actor === "anonymous") return;
      expect(res.json).toMatchObject({ email: w.actors[actor].user.email, role: "admin" });
    },
  },
  {
    file: "app/api/apps/[appId]/runtime/me/route.ts",
    method: "PATCH",
    who: "an end user of the app, their own fields; a builder has none of the app's (403); anonymous 401",
    request: (w) => ({ ...runtimeMe(w), body: { nickname: "Matrix" } }),
    appToken: { sessionBearer: 401 },
    expect: forDataAdmins(403, 401),
  },
  {
    file: "app/api/apps/[appId]/runtime/me/route.ts",
    method: "OPTIONS",
    who: "anybody: the CORS preflight of the app's frame (Origin null), which needs no credential",
    request: (w) => ({ ...runtimeMe(w), headers: preflight("PATCH") }),
    appToken: { sessionBearer: "2xx" },
    expect: everyone("2xx"),
    check: checkPreflight,
  },
  // ---- analytics: the app's owner and admins, for a published app ----
  {
    file: "app/api/apps/[appId]/analytics/route.ts",
    method: "GET",
    who: "the app's owner and admins (app A is published); another builder sees no such app",
    request: (w) => ({ path: `/api/apps/${w.appA.id}/analytics`, params: { appId: w.appA.id } }),
    expect: ownerOfAppA(),
    check: (res, actor, _via, w) => {
      if (actor === "builderA" || actor === "admin")
        expect((res.json as { app: { id: string } }).app.id).toBe(w.appA.id);
    },
  },
  {
    file: "app/api/apps/[appId]/analytics/runs/route.ts",
    method: "GET",
    who: "the app's owner and admins (app A is published); another builder sees no such app",
    request: (w) => ({ path: `/api/apps/${w.appA.id}/analytics/runs`, params: { appId: w.appA.id } }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/runs/[runId]/context/route.ts",
    method: "GET",
    who: "the app's owner (no scores) and admins (with scores); another builder sees no such app",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/runs/${w.runA.id}/context`,
      params: { appId: w.appA.id, runId: w.runA.id },
    }),
    expect: ownerOfAppA(),
    check: (res, actor) => {
      if (actor !== "builderA" && actor !== "admin") return;
      const { excerpts } = res.json as { excerpts: Record<string, unknown>[] };
      expect(excerpts.map((e) => e.text)).toEqual(["text"]);
      if (actor === "admin") expect(excerpts[0]!.score).toBe(2.5);
      else expect(excerpts[0]).not.toHaveProperty("score");
    },
  },
  // ---- paid memberships: builder side on the app's owner and admins; end users of app A ----
  {
    file: "app/api/apps/[appId]/payments/route.ts",
    method: "GET",
    who: "the app's owner and admins (the token itself is never answered)",
    request: (w) => ({ path: `/api/apps/${w.appA.id}/payments`, params: { appId: w.appA.id } }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/payments/route.ts",
    method: "DELETE",
    who: "the app's owner and admins (app A has no connection: nothing to forget, still ok)",
    request: (w) => ({ path: `/api/apps/${w.appA.id}/payments`, params: { appId: w.appA.id } }),
    expect: ownerOfAppA(),
  },
  {
    file: "app/api/apps/[appId]/payments/products/route.ts",
    method: "GET",
    who: "the app's owner on a paid plan, and admins (builder A is on lite: 403; admin: no token saved, 400)",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/payments/products?appId=${w.appA.id}`,
      params: { appId: w.appA.id },
    }),
    expect: { ...ownerOfAppA(400), builderA: 403 },
  },
  {
    file: "app/api/apps/[appId]/payments/connect/route.ts",
    method: "POST",
    who: "the app's owner on a paid plan, and admins (builder A is on lite: 403; admin: no token saved, 400)",
    request: (w) => ({
      path: `/api/apps/${w.appA.id}/payments/connect`,
      params: { appId: w.appA.id },
      body: { productId: "qQn8x6VYtLcMH2uLJ5Tf9A==" },
    }),
    expect: { ...ownerOfAppA(400), builderA: 403 },
  },
  {
    file: "app/api/apps/[appId]/membership/route.ts",
    method: "GET",
    who: "anybody: whether the published app asks for a membership (app A does not)",
    request: (w) => ({ path: `/api/apps/${w.appA.id}/membership`, params: { appId: w.appA.id } }),
    expect: everyone("2xx"),
    check: (res) => {
      expect(res.json).toEqual({ required: false, active: true, product: null });
    },
  },
  {
    file: "app/api/apps/[appId]/membership/verify/route.ts",
    method: "POST",
    who: "end users of the app only (app A asks for no membership: 400); builders and other apps' users 403",
    request: (w) => ({ path: `/api/apps/${w.appA.id}/membership/verify`, params: { appId: w.appA.id } }),
    expect: { ...signedIn(403), endUserA: 400 },
  },
  // A bare benchmark baseline that bypasses route(); inert (404) unless BENCH_ROUTES=1.
  {
    file: "app/api/bench/baseline/route.ts",
    method: "GET",
    who: "nobody unless the server runs with BENCH_ROUTES=1",
    request: (w, actor) => ({
      path: `/api/bench/baseline?id=${actor === "anonymous" ? w.actors.builderA.user.id : w.actors[actor].user.id}`,
    }),
    expect: everyone(404),
  },
  // The bare baseline of the app-save benchmark; inert (404) unless BENCH_ROUTES=1.
  {
    file: "app/api/bench/save-baseline/route.ts",
    method: "PATCH",
    who: "nobody unless the server runs with BENCH_ROUTES=1",
    request: (w) => ({
      path: `/api/bench/save-baseline?id=${w.appA.id}`,
      body: { baseRevision: w.appA.revision, app: { description: "matrix" } },
    }),
    expect: everyone(404),
  },
  {
    file: "app/api/billing/checkout/route.ts",
    method: "GET",
    who: "builders; only their own sale (anybody else's is not found)",
    request: () => ({ path: "/api/billing/checkout?sale_id=cs_test_matrix_unknown" }),
    expect: buildersOnly(404),
  },
  {
    file: "app/api/billing/checkout/route.ts",
    method: "POST",
    who: "builders, for themselves; the free plan needs no checkout (400, no Stripe call)",
    request: () => ({ path: "/api/billing/checkout", body: { planId: "lite", interval: "monthly" } }),
    expect: buildersOnly(400),
  },
  {
    file: "app/api/builder/magicCreate/route.ts",
    method: "POST",
    who: "builders; with an appId, its editors only. 'input' is refused (400) before any model call, configured or not",
    request: (w) => ({
      path: "/api/builder/magicCreate",
      body: { input: "input", magicType: "field", prompt: "", appId: w.appA.id },
    }),
    expect: ownerOfAppA(400),
  },
  {
    file: "app/api/csv/generateMapping/route.ts",
    method: "POST",
    who: "builders, on their own model budget; with no usable model the basic mapping (still 200)",
    request: () => ({
      path: "/api/csv/generateMapping",
      body: {
        headers: ["Title"],
        previewData: [{ Title: "Buy milk" }],
        schema: { type: "object", properties: { title: { type: "string" } } },
        entityName: "Task",
      },
    }),
    expect: buildersOnly(),
  },
  {
    file: "app/api/dev/outbox/route.ts",
    method: "GET",
    who: "anybody outside production; 404 in production",
    request: () => ({ path: "/api/dev/outbox?to=nobody@example.com" }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/files/[...key]/route.ts",
    method: "GET",
    who: "anybody: uploaded images are public (published apps show their logos); an unknown key is not found",
    request: (w) => {
      const key = `accounts/${w.actors.builderA.account.accountId}/apps/${w.appA.id}/logo/${crypto.randomUUID()}.png`;
      return { path: `/api/files/${key}`, params: { key: key.split("/") } };
    },
    expect: everyone(404),
  },
  {
    file: "app/api/identity/change-password/route.ts",
    method: "POST",
    who: "any signed-in user, for themselves, with their current password (wrong here: 400)",
    request: () => ({
      path: "/api/identity/change-password",
      body: { currentPassword: "not the password 1", newPassword: "a brand new passphrase 8" },
    }),
    expect: signedIn(400),
  },
  {
    file: "app/api/identity/check-reset-code/route.ts",
    method: "POST",
    who: "anybody with a reset link",
    request: () => ({ path: "/api/identity/check-reset-code", body: { oobCode: garbageCode } }),
    expect: everyone(400),
  },
  {
    file: "app/api/identity/request-email-change/route.ts",
    method: "POST",
    who: "any signed-in user, with the current password",
    request: () => ({
      path: "/api/identity/request-email-change",
      body: { newEmail: uniqueEmail("matrix-new"), currentPassword: STRONG_PASSWORD },
    }),
    expect: signedIn(),
  },
  {
    file: "app/api/identity/reset-password/route.ts",
    method: "POST",
    who: "anybody with a reset link",
    request: () => ({
      path: "/api/identity/reset-password",
      body: { oobCode: garbageCode, newPassword: "a fine new passphrase 3" },
    }),
    expect: everyone(400),
  },
  {
    file: "app/api/identity/send-verification-email/route.ts",
    method: "POST",
    who: "any signed-in user (their own address)",
    request: () => ({ path: "/api/identity/send-verification-email", body: {} }),
    expect: signedIn(),
  },
  {
    file: "app/api/identity/sign-in-with-magic-link/route.ts",
    method: "POST",
    who: "anybody with a magic link",
    request: () => ({ path: "/api/identity/sign-in-with-magic-link", body: { oobCode: garbageCode } }),
    expect: everyone(400),
  },
  {
    file: "app/api/identity/sign-in-with-password/route.ts",
    method: "POST",
    who: "anybody with credentials",
    request: (w) => ({ path: "/api/identity/sign-in-with-password", body: w.loginUser }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/identity/sign-up/route.ts",
    method: "POST",
    who: "anybody",
    request: () => ({
      path: "/api/identity/sign-up",
      body: { email: uniqueEmail("matrix-signup"), password: STRONG_PASSWORD },
    }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/identity/sessions/route.ts",
    method: "GET",
    who: "any signed-in user (their own sessions)",
    request: () => ({ path: "/api/identity/sessions" }),
    expect: signedIn(),
    check: (res, actor) => {
      if (actor === "anonymous") return;
      const list = (res.json as { sessions: { current: boolean }[] }).sessions;
      expect(list.filter((s) => s.current)).toHaveLength(1);
    },
  },
  {
    file: "app/api/identity/sessions/route.ts",
    method: "DELETE",
    who: "any signed-in user (signs out everywhere)",
    request: () => ({ path: "/api/identity/sessions" }),
    freshSession: true,
    expect: signedIn(),
  },
  {
    file: "app/api/identity/sessions/[sessionId]/route.ts",
    method: "DELETE",
    who: "any signed-in user, for a session of their own; somebody else's is not found",
    request: (w) => ({
      path: `/api/identity/sessions/${w.builderASessionId}`,
      params: { sessionId: w.builderASessionId },
    }),
    freshSession: true,
    // Only builder A owns that session; the others see no such session.
    expect: { ...signedIn(404), builderA: "2xx" },
  },
  {
    file: "app/api/identity/token/route.ts",
    method: "POST",
    who: "any signed-in user (a token for themselves)",
    request: () => ({ path: "/api/identity/token" }),
    expect: signedIn(),
    check: (res, actor, _via, w) => {
      if (actor === "anonymous") return;
      const tenant = actor === "endUserA" ? w.appA.id : actor === "endUserB" ? w.appB.id : null;
      expect((res.json as { tenantId: string | null }).tenantId).toBe(tenant);
    },
  },
  {
    file: "app/api/identity/verify-email/route.ts",
    method: "POST",
    who: "anybody with a verification link",
    request: () => ({ path: "/api/identity/verify-email", body: { oobCode: garbageCode } }),
    expect: everyone(400),
  },
  {
    file: "app/api/live_api/account/completeEmailChange/route.ts",
    method: "POST",
    who: "anybody with an email-change link",
    request: () => ({
      path: "/api/live_api/account/completeEmailChange",
      body: { newEmail: uniqueEmail(), oobCode: garbageCode },
    }),
    expect: everyone(400),
  },
  {
    file: "app/api/live_api/account/create/route.ts",
    method: "POST",
    who: "any signed-in user (their own account)",
    request: () => ({ path: "/api/live_api/account/create" }),
    expect: signedIn(),
    check: (res, actor, _via, w) => {
      if (actor === "anonymous") return;
      expect((res.json as { accountId: string }).accountId).toBe(w.actors[actor].account.accountId);
    },
  },
  {
    file: "app/api/live_api/account/current/route.ts",
    method: "GET",
    who: "any signed-in user (their own account)",
    request: () => ({ path: "/api/live_api/account/current" }),
    expect: signedIn(),
    check: (res, actor, _via, w) => {
      if (actor === "anonymous") return;
      const a = w.actors[actor];
      expect(res.json).toMatchObject({ accountId: a.account.accountId, email: a.user.email });
      expect((res.json as { isAdmin: boolean }).isAdmin).toBe(actor === "admin");
    },
  },
  {
    file: "app/api/live_api/account/sendMagicLink/route.ts",
    method: "POST",
    who: "anybody, for a published app",
    request: (w) => ({
      path: `/api/live_api/account/sendMagicLink?appId=${w.appA.id}`,
      body: { email: uniqueEmail("matrix-magic") },
    }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/live_api/account/sendResetPasswordEmail/route.ts",
    method: "POST",
    who: "anybody",
    // An unknown address: the answer is the same as for a known one, and no per-address limit is hit.
    request: () => ({ path: "/api/live_api/account/sendResetPasswordEmail", body: { email: uniqueEmail() } }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/live_api/account/validateOtp/route.ts",
    method: "POST",
    who: "anybody with a code, for a published app",
    request: (w) => ({
      path: `/api/live_api/account/validateOtp?appId=${w.appA.id}`,
      body: { email: uniqueEmail(), otp: "000000" },
    }),
    expect: everyone(400),
  },
  {
    file: "app/api/live_api/user/memories/current/route.ts",
    method: "GET",
    who: "end users of the app, their own memories; anybody else signed in is refused",
    request: (w) => ({ path: `/api/live_api/user/memories/current?appId=${w.appA.id}` }),
    expect: { ...signedIn(403), endUserA: "2xx" },
    check: (res, actor) => {
      if (actor === "endUserA") expect(res.json).toEqual({ memories: {} });
    },
  },
  {
    file: "app/api/live_api/user/memories/current/route.ts",
    method: "DELETE",
    who: "end users of the app, their own memories; anybody else signed in is refused",
    request: (w) => ({ path: `/api/live_api/user/memories/current?appId=${w.appA.id}` }),
    expect: { ...signedIn(403), endUserA: "2xx" },
  },
  {
    file: "app/api/models/route.ts",
    method: "GET",
    who: "builders: the model dropdown (the provider's list, or the built-in one)",
    request: () => ({ path: "/api/models" }),
    expect: buildersOnly(),
    check: (res, actor) => {
      if (!["builderA", "builderB", "admin"].includes(actor)) return;
      const body = res.json as { models: { id: string }[]; defaultModel: string };
      expect(body.models[0]?.id).toBe(body.defaultModel);
    },
  },
  {
    file: "app/api/openapi.json/route.ts",
    method: "GET",
    who: "anybody: the API's description",
    request: () => ({ path: "/api/openapi.json" }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/webhooks/stripe/route.ts",
    method: "POST",
    who: "Stripe: the signature over the raw body is the authorization; unsigned requests are refused",
    request: () => ({
      path: "/api/webhooks/stripe",
      body: { id: "evt_matrix", type: "checkout.session.completed" },
    }),
    expect: everyone(400),
  },
];

/** Does a status fall in the expected class? */
export function matches(status: number, e: Expected): boolean {
  if (e === "2xx") return status >= 200 && status < 300;
  if (e === "3xx") return status >= 300 && status < 400;
  return status === e;
}
