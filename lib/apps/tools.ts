import "server-only";
import { db, isUniqueViolation } from "@/db/client";
import {
  countActiveTools,
  countTools,
  deleteToolRow,
  findTool,
  insertTool,
  listTools,
  lockAccountTools,
  setToolPosition,
  touchApp,
  updateToolAt,
} from "@/db/queries/apps";
import type { App, Tool } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { deleteToolUploads } from "@/lib/uploads/upload-image";
import { toolView } from "./editor-app";
import { checkContent, checkToolPath, normalizeField } from "./field-rules";
import { fieldRuleContext, ruleFailure } from "./save-app";
import { type ToolAnswer, ToolContent, type ToolListAnswer } from "./schemas";

// The tools of a generated app: unique paths of letters, numbers and dashes; a
// header before activation; at most the plan's tools per app, and live tools per account.

function assertGenerated(app: App) {
  if (app.type !== "generated") throw new AppError("BAD_REQUEST", "invalidInput", "NOT_A_GENERATED_APP");
}

/** The app's tools, in their order. */
export function listAppTools(app: App): Promise<Tool[]> {
  return listTools(app.id);
}

/** One tool of the app, or nothing. */
export function findAppTool(app: App, toolId: string): Promise<Tool | undefined> {
  return findTool(app.id, toolId);
}

async function requireTool(app: App, toolId: string): Promise<Tool> {
  const tool = await findTool(app.id, toolId);
  if (!tool) throw new AppError("NOT_FOUND", "toolNotFound");
  return tool;
}

/** POST /api/apps/{appId}/tools: a draft tool at the end of the list. */
export async function createTool(app: App, body: { title: string; path: string }): Promise<ToolAnswer> {
  assertGenerated(app);
  const { caps } = await ownerPlan(app.ownerAccountId);
  const existing = await listTools(app.id);
  const broken = checkToolPath(
    body.path,
    existing.map((t) => t.path),
  );
  if (broken) throw ruleFailure(broken);
  if (existing.length >= caps.maxToolsPerApp) {
    throw new AppError(
      "FORBIDDEN",
      { key: "maxToolsPerApp", vars: { n: caps.maxToolsPerApp } },
      "PLAN_LIMIT",
    );
  }
  const content = ToolContent.parse({ header: body.title });
  try {
    const tool = await db().transaction(async (tx) => {
      // Re-counted under the lock: two parallel creates cannot both take the last slot.
      await lockAccountTools(app.ownerAccountId, tx);
      if ((await countTools(app.id, tx)) >= caps.maxToolsPerApp) {
        throw new AppError(
          "FORBIDDEN",
          { key: "maxToolsPerApp", vars: { n: caps.maxToolsPerApp } },
          "PLAN_LIMIT",
        );
      }
      return insertTool(
        { appId: app.id, title: body.title, path: body.path, position: existing.length, content },
        tx,
      );
    });
    await touchApp(app.id);
    return toolView(tool);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", "toolPathTaken", "RULE");
    throw err;
  }
}

type ToolPatch = Partial<Pick<Tool, "title" | "path" | "imageUrl" | "status">> & {
  content?: Partial<ToolContent>;
};

/** PATCH /api/apps/{appId}/tools/{toolId}: a partial save at a revision (409 when it moved on). */
export async function saveTool(
  session: Session,
  app: App,
  toolId: string,
  body: { baseRevision: number; tool: ToolPatch },
): Promise<ToolAnswer> {
  assertGenerated(app);
  const tool = await requireTool(app, toolId);
  if (tool.revision !== body.baseRevision) throw conflict(tool);
  const patch = body.tool;
  const current = ToolContent.parse(tool.content);
  // The title is the tool's header: either name changes both.
  const title = patch.title ?? patch.content?.header ?? tool.title;
  const merged = ToolContent.parse({ ...current, ...patch.content, header: title });
  const ctx = await fieldRuleContext(session, app);
  const broken = checkContent(merged, current, ctx);
  if (broken) throw ruleFailure(broken);
  const content = { ...merged, fields: merged.fields.map((f) => normalizeField(f, ctx)) };

  if (patch.path !== undefined && patch.path !== tool.path) {
    const others = (await listTools(app.id)).filter((t) => t.id !== tool.id).map((t) => t.path);
    const badPath = checkToolPath(patch.path, others);
    if (badPath) throw ruleFailure(badPath);
  }
  const status = patch.status ?? tool.status;
  if (status === "active" && title.trim() === "")
    throw new AppError("BAD_REQUEST", "toolNeedsHeader", "RULE");

  try {
    const saved = await db().transaction(async (tx) => {
      if (status === "active" && tool.status !== "active") {
        const { caps } = await ownerPlan(app.ownerAccountId);
        await lockAccountTools(app.ownerAccountId, tx);
        if ((await countActiveTools(app.ownerAccountId, tool.id, tx)) >= caps.maxLiveActiveTools) {
          throw new AppError(
            "FORBIDDEN",
            { key: "liveToolLimit", vars: { n: caps.maxLiveActiveTools } },
            "PLAN_LIMIT",
          );
        }
      }
      return updateToolAt(
        app.id,
        tool.id,
        body.baseRevision,
        {
          title,
          content,
          status,
          path: patch.path ?? tool.path,
          imageUrl: patch.imageUrl === undefined ? tool.imageUrl : patch.imageUrl,
        },
        tx,
      );
    });
    if (!saved) throw conflict((await findTool(app.id, tool.id)) ?? tool);
    await touchApp(app.id);
    return toolView(saved);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", "toolPathTaken", "RULE");
    throw err;
  }
}

/** DELETE /api/apps/{appId}/tools/{toolId} */
export async function deleteTool(app: App, toolId: string) {
  if (!(await deleteToolRow(app.id, toolId))) throw new AppError("NOT_FOUND", "toolNotFound");
  await deleteToolUploads(app.id, toolId);
  await touchApp(app.id);
  return { ok: true };
}

/** PUT /api/apps/{appId}/tools/order: the tools in the order given (unknown ids are refused). */
export async function reorderTools(app: App, toolIds: string[]): Promise<ToolListAnswer> {
  const tools = await listTools(app.id);
  const known = new Set(tools.map((t) => t.id));
  if (
    toolIds.length !== tools.length ||
    toolIds.some((id) => !known.has(id)) ||
    new Set(toolIds).size !== toolIds.length
  ) {
    throw new AppError("BAD_REQUEST", "invalidInput", "ORDER_MISMATCH");
  }
  await db().transaction(async (tx) => {
    for (const [position, id] of toolIds.entries()) await setToolPosition(app.id, id, position, tx);
  });
  await touchApp(app.id);
  return { tools: (await listTools(app.id)).map(toolView) };
}

function conflict(tool: Tool) {
  return new AppError("CONFLICT", "toolSaveConflict", "REVISION_CONFLICT", { current: toolView(tool) });
}
