import { describe, expect, it } from "vitest";
import * as entitiesRoute from "@/app/api/apps/[appId]/entities/route";
import { insertApp } from "@/db/queries/apps";
import type { EntityList } from "@/lib/space/entities";
import type { FileChange } from "@/lib/space/schemas";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp, page, say } from "../support/space";

// The Database panel's list (GET /api/apps/{appId}/entities): the entities of the space app's
// current version as the chat's add_entity / edit_entity actions wrote them, but User.

const entity = (
  name: string,
  schema: object,
  type: "add_entity" | "edit_entity" = "add_entity",
): FileChange => ({
  type,
  name,
  content: JSON.stringify(schema),
});

const list = (appId: string, token: string) =>
  call<EntityList>(entitiesRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/entities`,
    params: { appId },
    token,
  });

describe("GET /api/apps/{appId}/entities", () => {
  it("lists the current version's entities by name, their fields and access, without User", async () => {
    const b = await createBuilder();
    const app = await createSpaceApp(b.account.accountId);
    expect((await list(app.id, b.token)).json).toEqual({ entities: [] });

    await say(app, b.account.accountId, {
      user: "Tasks with an assignee",
      answer: "Done",
      changes: [
        page("Home", "Tasks"),
        entity("Task", {
          type: "object",
          properties: {
            title: { type: "string" },
            done: { type: "boolean" },
            due: { type: "string", format: "date-time" },
            priority: { type: "string", enum: ["low", "high"] },
            tags: { type: "array", items: { type: "string" } },
            place: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            note: { type: ["string", "null"] },
          },
          required: ["title"],
          "x-accessControl": { permissions: { read: "all", write: "admin" } },
        }),
        entity("Assignee", { type: "object", properties: { name: { type: "string" } } }),
        entity("User", { type: "object", properties: { nickname: { type: "string" } } }),
      ],
    });

    const res = await list(app.id, b.token);
    expect(res.status).toBe(200);
    const { entities } = res.json;
    expect(entities.map((e) => [e.name, e.path])).toEqual([
      ["Assignee", "entities/Assignee.json"],
      ["Task", "entities/Task.json"],
    ]);
    // No access control in the schema: creator for both.
    expect(entities[0]!.access).toEqual({ read: "creator", write: "creator" });
    const task = entities[1]!;
    expect(task.access).toEqual({ read: "all", write: "admin" });
    const row = (name: string) => task.fields.find((f) => f.name === name);
    expect(task.fields.slice(0, 3).map((f) => [f.name, f.builtIn])).toEqual([
      ["id", true],
      ["creatorId", true],
      ["createdAt", true],
    ]);
    expect(row("createdAt")).toMatchObject({ type: "string", format: "date-time" });
    expect(row("title")).toMatchObject({ type: "string", required: true, builtIn: false });
    expect(row("done")).toMatchObject({ type: "boolean", required: false });
    expect(row("due")).toMatchObject({ format: "date-time" });
    expect(row("priority")).toMatchObject({ enum: ["low", "high"] });
    expect(row("tags")).toMatchObject({ type: "array", items: "string" });
    expect(row("place")).toMatchObject({ type: "object" });
    expect(row("place.city")).toMatchObject({ type: "string", required: true });
    expect(row("note")).toMatchObject({ type: "string or null" });

    // An edit replaces the schema; the list follows the current version.
    await say(app, b.account.accountId, {
      user: "Anyone can submit a task",
      answer: "Done",
      changes: [
        entity(
          "Task",
          {
            type: "object",
            properties: { title: { type: "string" } },
            "x-accessControl": { permissions: { read: "admin", write: "anonymous" } },
          },
          "edit_entity",
        ),
      ],
    });
    const after = (await list(app.id, b.token)).json.entities.find((e) => e.name === "Task")!;
    expect(after.access).toEqual({ read: "admin", write: "anonymous" });
    expect(after.fields.filter((f) => !f.builtIn).map((f) => f.name)).toEqual(["title"]);
  });

  it("is a space app's list only: another kind of app is refused", async () => {
    const b = await createBuilder();
    const tool = await insertApp({ ownerAccountId: b.account.accountId, header: "A tool" });
    const res = await list(tool.id, b.token);
    expect(res.status).toBe(400);
    expect((res.json as unknown as { error: { code: string } }).error.code).toBe("NOT_SPACE_APP");
  });
});
