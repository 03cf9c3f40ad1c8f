import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as recordRoute from "@/app/api/apps/[appId]/data/[entity]/[recordId]/route";
import * as listRoute from "@/app/api/apps/[appId]/data/[entity]/route";
import { ACCESS_PRESETS } from "@/components/editor/database/entity-text";
import { db } from "@/db/client";
import { findRuntimeRecord, insertRuntimeRecords, listRuntimeRecords } from "@/db/queries/app-data";
import { type App, users } from "@/db/schema";
import type { AccessLevel } from "@/lib/app-data/access";
import { type MessageKey, messages } from "@/lib/messages";
import { appTokenFor, publish, taskSchema } from "../support/app-data";
import { createBuilder, createEndUser, fromIp } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp, say } from "../support/space";

// The access rules of a space app's data, as its own code meets them through the data API: the
// six presets of the Database panel, each against every kind of caller, each of the five
// operations, every answer asserted exactly. The expectations are written out by hand below from
// the rules (lib/app-data/access.ts says them in prose), never computed by that module.
//
// One app (A) holds, per preset, an entity whose list is only ever read (three records: the
// creator's, another end user's and an anonymous one) and an entity the other operations use,
// each `it` on a record of the creator's of its own. App B is another app of another builder.

type Actor =
  | "anonymous"
  | "otherUser"
  | "creator"
  | "builder"
  | "endUserAdmin"
  | "foreignEndUser"
  | "foreignBuilder";

const ACTOR_TEXT: Record<Actor, string> = {
  anonymous: "anonymous (no token)",
  otherUser: "another end user of the app",
  creator: "the record's creator (an end user)",
  builder: "the app's builder (its admin)",
  endUserAdmin: "an end user the builder made an admin",
  foreignEndUser: "an end user of another app (their token of it)",
  foreignBuilder: "the builder of another app (their token of it)",
};

/** What a list shows: every record, only the caller's own, nothing; or a status when it fails. */
type Seen = "every" | "own" | "none" | 401;
/** [list, get, create, update, delete] of the creator's record */
type Expectation = [list: Seen, get: number, create: number, update: number, remove: number];

const ADMIN: Expectation = ["every", 200, 200, 200, 200];
/** A token of another app is no token of this one, whatever the entity allows. */
const FOREIGN: Expectation = [401, 401, 401, 401, 401];

// Anonymous is asked to sign in (401) where signing in could help, and a signed-in caller is
// refused (403); a record one may not read is not found (404), whatever one may write.
const EXPECTED: Record<string, Record<Actor, Expectation>> = {
  // read admin, write anonymous
  accessPresetAnonymousSubmit: {
    anonymous: ["none", 404, 200, 404, 404],
    otherUser: ["none", 404, 200, 404, 404],
    creator: ["none", 404, 200, 404, 404],
    builder: ADMIN,
    endUserAdmin: ADMIN,
    foreignEndUser: FOREIGN,
    foreignBuilder: FOREIGN,
  },
  // read anonymous, write admin
  accessPresetAnonymousRead: {
    anonymous: ["every", 200, 401, 401, 401],
    otherUser: ["every", 200, 403, 403, 403],
    creator: ["every", 200, 403, 403, 403],
    builder: ADMIN,
    endUserAdmin: ADMIN,
    foreignEndUser: FOREIGN,
    foreignBuilder: FOREIGN,
  },
  // read all, write admin
  accessPresetUsersReadAdminWrite: {
    anonymous: ["none", 404, 401, 404, 404],
    otherUser: ["every", 200, 403, 403, 403],
    creator: ["every", 200, 403, 403, 403],
    builder: ADMIN,
    endUserAdmin: ADMIN,
    foreignEndUser: FOREIGN,
    foreignBuilder: FOREIGN,
  },
  // read all, write creator
  accessPresetUsersReadCreatorWrite: {
    anonymous: ["none", 404, 401, 404, 404],
    otherUser: ["every", 200, 200, 403, 403],
    creator: ["every", 200, 200, 200, 200],
    builder: ADMIN,
    endUserAdmin: ADMIN,
    foreignEndUser: FOREIGN,
    foreignBuilder: FOREIGN,
  },
  // read creator, write creator
  accessPresetCreatorOnly: {
    anonymous: ["none", 404, 401, 404, 404],
    otherUser: ["own", 404, 200, 404, 404],
    creator: ["own", 200, 200, 200, 200],
    builder: ADMIN,
    endUserAdmin: ADMIN,
    foreignEndUser: FOREIGN,
    foreignBuilder: FOREIGN,
  },
  // read admin, write admin
  accessPresetAdminOnly: {
    anonymous: ["none", 404, 401, 404, 404],
    otherUser: ["none", 404, 403, 404, 404],
    creator: ["none", 404, 403, 404, 404],
    builder: ADMIN,
    endUserAdmin: ADMIN,
    foreignEndUser: FOREIGN,
    foreignBuilder: FOREIGN,
  },
};

/** The presets by hand (read/write), checked below against the Database panel's own list. */
const PRESETS: { label: MessageKey; read: AccessLevel; write: AccessLevel; entity: string }[] = [
  { label: "accessPresetAnonymousSubmit", read: "admin", write: "anonymous", entity: "Guestbook" },
  { label: "accessPresetAnonymousRead", read: "anonymous", write: "admin", entity: "Notice" },
  { label: "accessPresetUsersReadAdminWrite", read: "all", write: "admin", entity: "Rule" },
  { label: "accessPresetUsersReadCreatorWrite", read: "all", write: "creator", entity: "Post" },
  { label: "accessPresetCreatorOnly", read: "creator", write: "creator", entity: "Diary" },
  { label: "accessPresetAdminOnly", read: "admin", write: "admin", entity: "Secret" },
];
const listEntity = (entity: string) => `${entity}List`;

type Rec = { id: string; creatorId: string | null; title?: string; [k: string]: unknown };
type Answer = {
  status: number;
  json: { error?: { code: string; message: string } } & Record<string, unknown>;
};

let appA: App;
let appB: App;
/** The bearer each actor sends to app A (null: none). */
const tokens = {} as Record<Actor, string | null>;
const ids = {} as Record<"creator" | "otherUser" | "builder" | "endUserAdmin", string>;
/** Per preset: the ids of the list entity's records (the creator's, the other user's, the anonymous one). */
const listed = new Map<string, { creator: string; otherUser: string; anonymous: string }>();

beforeAll(async () => {
  const [builderA, builderB] = await Promise.all([createBuilder(), createBuilder()]);
  [appA, appB] = await Promise.all([
    createSpaceApp(builderA.account.accountId, "Access A"),
    createSpaceApp(builderB.account.accountId, "Access B"),
  ]);
  await say(appA, builderA.account.accountId, {
    user: "The entities",
    answer: "Done",
    changes: PRESETS.flatMap((p) =>
      [p.entity, listEntity(p.entity)].map((name) => ({
        type: "add_entity" as const,
        name,
        content: taskSchema(p.read, p.write),
      })),
    ),
  });
  // App B has the same entities, so that only the app tells its records from A's.
  await say(appB, builderB.account.accountId, {
    user: "The entities",
    answer: "Done",
    changes: PRESETS.map((p) => ({
      type: "add_entity" as const,
      name: p.entity,
      content: taskSchema("anonymous", "anonymous"),
    })),
  });
  await Promise.all([publish(appA), publish(appB)]);
  const [creator, otherUser, endUserAdmin, foreignEndUser] = await Promise.all([
    createEndUser(appA.id),
    createEndUser(appA.id),
    createEndUser(appA.id),
    createEndUser(appB.id),
  ]);
  await db().update(users).set({ appRole: "admin" }).where(eq(users.id, endUserAdmin.user.id));
  Object.assign(ids, {
    creator: creator.user.id,
    otherUser: otherUser.user.id,
    builder: builderA.user.id,
    endUserAdmin: endUserAdmin.user.id,
  });
  const a = (s: { token: string }) => appTokenFor(appA.id, s.token);
  const b = (s: { token: string }) => appTokenFor(appB.id, s.token);
  const issued = await Promise.all([
    a(creator),
    a(otherUser),
    a(builderA),
    a(endUserAdmin),
    b(foreignEndUser),
    b(builderB),
  ]);
  Object.assign(tokens, {
    anonymous: null,
    creator: issued[0],
    otherUser: issued[1],
    builder: issued[2],
    endUserAdmin: issued[3],
    foreignEndUser: issued[4],
    foreignBuilder: issued[5],
  });
  for (const p of PRESETS) {
    const [c, o, n] = await insertRuntimeRecords(appA.id, listEntity(p.entity), [
      { creatorId: creator.user.id, data: { title: "The creator's" } },
      { creatorId: otherUser.user.id, data: { title: "Another user's" } },
      { creatorId: null, data: { title: "An anonymous one" } },
    ]);
    listed.set(p.entity, { creator: c!.id, otherUser: o!.id, anonymous: n!.id });
  }
});

// ---- the five operations, as the data client sends them ----

const bearer = (actor: Actor) => tokens[actor] ?? undefined;

function list(app: App, entity: string, token: string | undefined): Promise<Answer> {
  return call(listRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/data/${entity}?limit=200`,
    params: { appId: app.id, entity },
    token,
  });
}

function create(app: App, entity: string, token: string | undefined, body: unknown): Promise<Answer> {
  return call(listRoute.POST, {
    path: `/api/apps/${app.id}/data/${entity}`,
    params: { appId: app.id, entity },
    token,
    body,
    // Anonymous writes are counted per address: each call from its own.
    headers: fromIp(),
  });
}

const RECORD = { GET: recordRoute.GET, PATCH: recordRoute.PATCH, DELETE: recordRoute.DELETE };
function one(
  method: keyof typeof RECORD,
  app: App,
  entity: string,
  id: string,
  token: string | undefined,
  body?: unknown,
): Promise<Answer> {
  return call(RECORD[method], {
    method,
    path: `/api/apps/${app.id}/data/${entity}/${id}`,
    params: { appId: app.id, entity, recordId: id },
    token,
    body,
    headers: fromIp(),
  });
}

/** A fresh record of the creator's in app A, as the data API stored it. */
async function creatorsRecord(entity: string) {
  const [row] = await insertRuntimeRecords(appA.id, entity, [
    { creatorId: ids.creator, data: { title: "Water the plants", done: false } },
  ]);
  return row!;
}

/** The error code a refusal carries: why it was refused. */
function codeOf(status: number, actor: Actor): string {
  if (status === 401) return actor.startsWith("foreign") ? "APP_TOKEN_INVALID" : "UNAUTHENTICATED";
  if (status === 403) return "FORBIDDEN";
  return "RECORD_NOT_FOUND";
}

/** The status, and for a refusal its code, in one comparison (a readable failure). */
function expectAnswer(res: Answer, status: number, actor: Actor) {
  const got = { status: res.status, code: res.json.error?.code ?? null };
  expect(got, JSON.stringify(res.json).slice(0, 300)).toEqual({
    status,
    code: status === 200 ? null : codeOf(status, actor),
  });
}

const userId = (actor: Actor): string | null =>
  actor === "anonymous" ? null : ids[actor as keyof typeof ids];

describe("the presets of the Database panel", () => {
  it("are the six the panel offers, with these read and write levels", () => {
    expect(PRESETS.map(({ label, read, write }) => ({ label, read, write }))).toEqual([...ACCESS_PRESETS]);
  });
});

const ACTORS = Object.keys(ACTOR_TEXT) as Actor[];
const showList = (s: Seen) =>
  s === 401 ? "401" : `200, ${s === "every" ? "every row" : s === "own" ? "their own row only" : "no row"}`;

for (const preset of PRESETS) {
  const { entity } = preset;
  describe(`"${messages[preset.label]}" (read: ${preset.read}, write: ${preset.write})`, () => {
    for (const actor of ACTORS) {
      const [seen, get, created, updated, deleted] = EXPECTED[preset.label]![actor];

      it(`list as ${ACTOR_TEXT[actor]}: ${showList(seen)}`, async () => {
        const res = await list(appA, listEntity(entity), bearer(actor));
        if (seen === 401) return expectAnswer(res, 401, actor);
        expectAnswer(res, 200, actor);
        const rows = listed.get(entity)!;
        const expected =
          seen === "every"
            ? [rows.creator, rows.otherUser, rows.anonymous]
            : seen === "own"
              ? [rows[actor as "creator" | "otherUser"]]
              : [];
        // Exactly the rows the caller may read, and nothing that hints at the others.
        expect(Object.keys(res.json).sort()).toEqual(["nextCursor", "records"]);
        expect(res.json.nextCursor).toBeNull();
        expect((res.json.records as Rec[]).map((r) => r.id).sort()).toEqual(expected.sort());
      });

      it(`get the creator's record as ${ACTOR_TEXT[actor]}: ${get}`, async () => {
        const rec = await creatorsRecord(entity);
        const res = await one("GET", appA, entity, rec.id, bearer(actor));
        expectAnswer(res, get, actor);
        if (get === 200)
          expect(res.json).toMatchObject({ id: rec.id, creatorId: ids.creator, title: "Water the plants" });
      });

      it(`create as ${ACTOR_TEXT[actor]}: ${created}`, async () => {
        const title = `Created by ${actor} ${crypto.randomUUID()}`;
        const res = await create(appA, entity, bearer(actor), { title });
        expectAnswer(res, created, actor);
        const stored = await listRuntimeRecords({
          appId: appA.id,
          entity,
          limit: 2,
          order: "createdAt",
          direction: "desc",
          after: null,
          contains: { title },
        });
        if (created === 200) {
          expect(res.json).toMatchObject({ title, done: false, creatorId: userId(actor) });
          expect(stored.map((r) => [r.id, r.creatorId])).toEqual([[res.json.id, userId(actor)]]);
        } else expect(stored).toEqual([]);
      });

      it(`update the creator's record as ${ACTOR_TEXT[actor]}: ${updated}`, async () => {
        const rec = await creatorsRecord(entity);
        const res = await one("PATCH", appA, entity, rec.id, bearer(actor), { done: true });
        expectAnswer(res, updated, actor);
        const after = await findRuntimeRecord(appA.id, entity, rec.id);
        if (updated === 200) {
          expect(res.json).toMatchObject({ id: rec.id, creatorId: ids.creator, done: true });
          expect(after?.data).toEqual({ title: "Water the plants", done: true });
        } else expect(after?.data).toEqual(rec.data);
      });

      it(`delete the creator's record as ${ACTOR_TEXT[actor]}: ${deleted}`, async () => {
        const rec = await creatorsRecord(entity);
        const res = await one("DELETE", appA, entity, rec.id, bearer(actor));
        expectAnswer(res, deleted, actor);
        const after = await findRuntimeRecord(appA.id, entity, rec.id);
        if (deleted === 200) {
          expect(res.json).toEqual({ deleted: true });
          expect(after).toBeUndefined();
        } else expect(after?.id).toBe(rec.id);
      });
    }
  });
}

describe("another app's tokens and records", () => {
  it("refuses a token of app B at app A, and one of app A at app B, even where anybody may read", async () => {
    const anyoneReads = PRESETS.find((p) => p.read === "anonymous")!.entity;
    expect((await list(appA, listEntity(anyoneReads), undefined)).status).toBe(200);
    expectAnswer(await list(appA, listEntity(anyoneReads), bearer("foreignBuilder")), 401, "foreignBuilder");
    // App B's entities are open to anybody, yet A's builder's token is no token of B's.
    expect((await list(appB, anyoneReads, undefined)).status).toBe(200);
    expectAnswer(await list(appB, anyoneReads, bearer("builder")), 401, "foreignBuilder");
  });

  it("answers 404 to a record id of app B sent through app A's routes, even to A's admins", async () => {
    const { entity } = PRESETS.find((p) => p.label === "accessPresetAdminOnly")!;
    const [theirs] = await insertRuntimeRecords(appB.id, entity, [
      { creatorId: null, data: { title: "B's" } },
    ]);
    for (const actor of ["builder", "endUserAdmin"] as const) {
      for (const method of ["GET", "PATCH", "DELETE"] as const) {
        const res = await one(
          method,
          appA,
          entity,
          theirs!.id,
          bearer(actor),
          method === "PATCH" ? { done: true } : undefined,
        );
        expect({ actor, method, status: res.status }).toEqual({ actor, method, status: 404 });
      }
    }
    expect((await findRuntimeRecord(appB.id, entity, theirs!.id))?.data).toEqual({ title: "B's" });
    // Nor does it show in A's lists.
    const all = await list(appA, entity, bearer("builder"));
    expect((all.json.records as Rec[]).some((r) => r.id === theirs!.id)).toBe(false);
  });
});
