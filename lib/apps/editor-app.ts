import "server-only";
import { findAppSettings, findAppStyle, listTools } from "@/db/queries/apps";
import type { App, Tool } from "@/db/schema";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { blocksFor } from "./field-rules";
import {
  type AppAnswer,
  AppContent,
  AppSettings,
  AppStyle,
  type EditorAppAnswer,
  type SettingsAnswer,
  type StyleAnswer,
  type ToolAnswer,
  ToolContent,
} from "./schemas";
import { presetStyle } from "./style-presets";

// What the editor gets for an app: its content, style, settings and tools, each with the
// revision a save must name, read back through the schemas (defaults filled in).

export type ToolView = ToolAnswer;

/** Stored content as it is read: defaults filled in, and "blocks (built from gptPrompt if blocks are empty)". */
export function readContent(raw: unknown) {
  const content = AppContent.parse(raw);
  return { ...content, blocks: blocksFor(content) };
}

function readToolContent(raw: unknown) {
  const content = ToolContent.parse(raw);
  return { ...content, blocks: blocksFor(content) };
}

export function toolView(tool: Tool): ToolAnswer {
  return {
    toolId: tool.id,
    title: tool.title,
    path: tool.path,
    imageUrl: tool.imageUrl,
    status: tool.status,
    position: tool.position,
    revision: tool.revision,
    content: readToolContent(tool.content),
    updatedAt: tool.updatedAt.toISOString(),
  };
}

export function appView(app: App): AppAnswer {
  return {
    appId: app.id,
    appType: app.type,
    status: app.status,
    revision: app.revision,
    app: readContent(app.content),
    updatedAt: app.updatedAt.toISOString(),
  };
}

export async function loadStyle(appId: string): Promise<StyleAnswer> {
  const row = await findAppStyle(appId);
  return { revision: row?.revision ?? 0, appStyle: AppStyle.parse(row?.style ?? presetStyle("light")) };
}

export async function loadSettings(appId: string): Promise<SettingsAnswer> {
  const row = await findAppSettings(appId);
  return { revision: row?.revision ?? 0, appSettings: AppSettings.parse(row?.settings ?? {}) };
}

/** GET /api/apps/{appId}: everything the editor shows. */
export async function loadEditorApp(app: App): Promise<EditorAppAnswer> {
  const [style, settings, tools, owner] = await Promise.all([
    loadStyle(app.id),
    loadSettings(app.id),
    listTools(app.id),
    ownerPlan(app.ownerAccountId),
  ]);
  return {
    ...appView(app),
    style,
    settings,
    tools: tools.map(toolView),
    ownerPlan: owner.plan,
    /** Whether the watermark shows on the public page: the style's switch, else the plan's default. */
    watermarkHidden: style.appStyle.hideBuildAI ?? owner.caps.hideWatermarkByDefault,
  };
}

export type EditorApp = EditorAppAnswer;
