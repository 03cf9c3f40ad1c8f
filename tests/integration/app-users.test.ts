import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/apps/[appId]/data/[entity]/route";
import * as meRoute from "@/app/api/apps/[appId]/runtime/me/route";
import * as userRoute from "@/app/api/apps/[appId]/users/[userId]/route";
import * as usersRoute from "@/app/api/apps/[appId]/users/route";
import type { App } from "@/db/schema";
import type { AppUserPage, AppUserView } from "@/lib/app-data/app-user-schemas";
import { messages } from "@/lib/messages";
import { appTokenFor, publish, setEntity, taskSchema } from "../support/app-data";
import { createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp } from "../support/space";

// The Database panel's Users view (lib/app-data/app-users.ts): a space app's end users, newest
// first with their User entity fields, listed and made admins by the app's builder only; nobody
// but this app's end users is ever listed or changed, and the role decides their data access.

type Err = { error: { code: string; message: string } };
type Builder = Awaited<ReturnType<typeof createBuilder>>;
type EndUser = Awaited<ReturnType<typeof createEndUser>>;

let builder: Builder;
let app: App;
let alice: EndUser;
let bob: EndUser;
let carol: EndUser;
let stranger: EndUser;

const list = (appId: string, token: string, query = "") =>
  call<AppUserPage & Err>(usersRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/users${query}`,
    params: { appId },
    token,
  });
const setRole = (appId: string, token: string, userId: string, body: unknown) =>
  call<AppUserView & Err>(userRoute.PATCH, {
    method: "PATCH",
    path: `/api/apps/${appId}/users/${userId}`,
    params: { appId, userId },
    token,
    body,
  });

beforeAll(async () => {
  builder = await createBuilder();
  app = await createSpaceApp(builder.account.accountId, "Team tasks");
  await setEntity(app, builder.account.accountId, "Task", taskSchema("creator", "creator"));
  await setEntity(
    app,
    builder.account.accountId,
    "User",
    JSON.stringify({
      type: "object",
      properties: { nickname: { type: "string" }, team: { type: "string", enum: ["red", "blue"] } },
    }),
  );
  await publish(app);
  // Created one after the other: newest first is carol, bob, alice.
  alice = await createEndUser(app.id);
  bob = await createEndUser(app.id);
  carol = await createEndUser(app.id);
  const other = await createSpaceApp(builder.account.accountId, "Other app");
  await publish(other);
  stranger = await createEndUser(other.id);
});

describe("GET /api/apps/{appId}/users", () => {
  it("lists this app's end users newest first, with the User entity's fields and their values", async () => {
    const nick = await call<Err>(meRoute.PATCH, {
      method: "PATCH",
      path: `/api/apps/${app.id}/runtime/me`,
      params: { appId: app.id },
      token: await appTokenFor(app.id, alice.token),
      body: { nickname: "Ali", team: "red" },
    });
    expect(nick.status).toBe(200);

    const res = await list(app.id, builder.token);
    expect(res.status).toBe(200);
    expect(res.json.fields.map((f) => [f.name, f.type, f.enum])).toEqual([
      ["nickname", "string", null],
      ["team", "string", ["red", "blue"]],
    ]);
    expect(res.json.users.map((u) => u.id)).toEqual([carol.user.id, bob.user.id, alice.user.id]);
    expect(res.json.total).toBe(3);
    expect(res.json.nextCursor).toBeNull();
    expect(res.json.users[2]).toMatchObject({
      id: alice.user.id,
      email: alice.user.email,
      role: "user",
      data: { nickname: "Ali", team: "red" },
    });
    // Never the builder, nor an end user of another app.
    const ids = res.json.users.map((u) => u.id);
    expect(ids).not.toContain(builder.user.id);
    expect(ids).not.toContain(stranger.user.id);
  });

  it("pages by cursor without skipping or repeating anybody", async () => {
    const first = await list(app.id, builder.token, "?limit=2");
    expect(first.json.users.map((u) => u.id)).toEqual([carol.user.id, bob.user.id]);
    expect(first.json.total).toBe(3);
    const next = await list(app.id, builder.token, `?limit=2&cursor=${first.json.nextCursor}`);
    expect(next.json.users.map((u) => u.id)).toEqual([alice.user.id]);
    expect(next.json.nextCursor).toBeNull();
    expect((await list(app.id, builder.token, "?cursor=nope")).status).toBe(400);
  });

  it("answers 404 to a builder of another app, and 400 for an app that is not a space app", async () => {
    const other = await createBuilder();
    const res = await list(app.id, other.token);
    expect(res.status).toBe(404);
    expect(res.json.error.message).toBe(messages.appNotFound);
    const tool = await createPublishedApp(builder.account.accountId, "A tool app");
    expect((await list(tool.id, builder.token)).status).toBe(400);
  });
});

describe("PATCH /api/apps/{appId}/users/{userId}", () => {
  it("makes an end user an admin of the app's data at once, and a user again", async () => {
    // Bob's and Carol's tasks, under creator-only access: Bob sees only his own.
    const bobToken = await appTokenFor(app.id, bob.token);
    const carolToken = await appTokenFor(app.id, carol.token);
    const create = (token: string, title: string) =>
      call<Err>(listRoute.POST, {
        path: `/api/apps/${app.id}/data/Task`,
        params: { appId: app.id, entity: "Task" },
        token,
        body: { title },
      });
    expect((await create(bobToken, "Bob's task")).status).toBe(200);
    expect((await create(carolToken, "Carol's task")).status).toBe(200);
    const tasks = async () =>
      (
        await call<{ records: { title: string }[] }>(listRoute.GET, {
          method: "GET",
          path: `/api/apps/${app.id}/data/Task`,
          params: { appId: app.id, entity: "Task" },
          token: bobToken,
        })
      ).json.records.map((r) => r.title);
    expect(await tasks()).toEqual(["Bob's task"]);

    const made = await setRole(app.id, builder.token, bob.user.id, { role: "admin" });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ id: bob.user.id, email: bob.user.email, role: "admin" });
    // The token Bob already holds now reads every row, as the app's admins do.
    expect(await tasks()).toEqual(["Carol's task", "Bob's task"]);
    const listed = await list(app.id, builder.token);
    expect(listed.json.users.find((u) => u.id === bob.user.id)?.role).toBe("admin");

    expect((await setRole(app.id, builder.token, bob.user.id, { role: "user" })).json.role).toBe("user");
    expect(await tasks()).toEqual(["Bob's task"]);
  });

  it("changes nobody but this app's end users, for nobody but its builder", async () => {
    const other = await createBuilder();
    // A builder of another app: no such app.
    expect((await setRole(app.id, other.token, alice.user.id, { role: "admin" })).status).toBe(404);
    // An end user of another app, and a builder, are no users of this app.
    const foreign = await setRole(app.id, builder.token, stranger.user.id, { role: "admin" });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.message).toBe(messages.appUserNotFound);
    expect((await setRole(app.id, builder.token, builder.user.id, { role: "admin" })).status).toBe(404);
    expect((await setRole(app.id, builder.token, other.user.id, { role: "admin" })).status).toBe(404);
    // An end user cannot call the builder's route, even about their own app.
    expect((await setRole(app.id, alice.token, alice.user.id, { role: "admin" })).status).toBe(403);
    // Nothing changed.
    const strangerApp = stranger.user.tenantId!;
    const theirs = await list(strangerApp, builder.token);
    expect(theirs.json.users.find((u) => u.id === stranger.user.id)?.role).toBe("user");
    const ours = await list(app.id, builder.token);
    expect(ours.json.users.every((u) => u.role === "user")).toBe(true);
    // Only the two roles.
    expect((await setRole(app.id, builder.token, alice.user.id, { role: "owner" })).status).toBe(400);
    expect((await setRole(app.id, builder.token, alice.user.id, {})).status).toBe(400);
  });
});
