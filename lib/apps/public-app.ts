import "server-only";
import { notFound } from "next/navigation";
import { findPublishedToolByPath, findToolByPath, listTools } from "@/db/queries/apps";
import type { App, Tool } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { type AppWithOwner, findAppWithOwner, ownerPlan } from "@/lib/plans/owner-plan";
import { canEditApp, isUuid } from "./access";
import { loadSettings, loadStyle } from "./editor-app";
import { type PublicContent, type PublicStyle, publicContentOf, publicStyleOf } from "./public-content";
import { AppContent, type AppSettings, TOOL_PATH, ToolContent } from "./schemas";
import { requirePublishedApp } from "./tenant";

// What the public pages show (/app/{appId}, /app/{appId}/tool/{toolPath}, /tool/{path}): the
// public part of an app's saved content, style and tools (public-content.ts), read on the server. Visitors see published apps and
// their active tools; the app's builder (its owner, or an admin) also sees drafts, marked as such.
// Anybody else gets null, which the pages turn into the same 404 as for an id that does not exist.

/** For the sign-in pages of an app: the published app, or Next's 404 page. */
export async function publishedAppOr404(appId: string): Promise<App> {
  try {
    return await requirePublishedApp(appId);
  } catch (err) {
    if (err instanceof AppError) notFound();
    throw err;
  }
}

export type PublicTool = { title: string; path: string; imageUrl: string | null };

/**
 * One public page: what PublicAppView draws, plus what the page around it needs. All of it goes
 * to the browser, for the builder and for everybody else, so it holds nothing the page does not show.
 */
export type PublicPage = {
  appId: string;
  appType: App["type"];
  /** The app's header (its name), also on a tool page. */
  appHeader: string;
  /** The public part of the app's content, or of the tool's on a tool page. */
  content: PublicContent;
  style: PublicStyle;
  watermarkHidden: boolean;
  /** A generated app's main page: its active tools, in the builder's order. */
  tools?: PublicTool[];
  /** Why the builder sees a banner: the app is unpublished, or (on a tool page) the tool is a draft. */
  draft: false | "app" | "tool";
  mainPage: AppSettings["mainPage"];
  /** The page title: the tool's header on a tool page, else the app's. */
  title: string;
  /** Whether end users can sign in here (published apps only). */
  published: boolean;
  /** The tool a run of this page runs (POST /api/apps/{appId}/run's toolId): null on an app's own page. */
  toolId: string | null;
  /** "userCanEditResults": the end user may edit the shown answer (in the page only; nothing is saved). */
  userCanEditResults: boolean;
  /** Runs need an end user signed in to this app (isSignupEnabled). */
  signInRequired: boolean;
  /** The viewer is the app's builder (its owner, or an admin): their runs are previews, whose data they may see. */
  builderView: boolean;
};

/** Whether this viewer may see the app: everybody when published, only its builder when a draft. */
export function canViewApp(session: Session | null, app: Pick<App, "status" | "ownerAccountId">): boolean {
  return app.status === "active" || (session !== null && canEditApp(session, app));
}

const publicTool = (t: Tool): PublicTool => ({ title: t.title, path: t.path, imageUrl: t.imageUrl });

async function pageOf(
  { app, owner }: AppWithOwner,
  tool: Tool | null,
  session: Session | null,
): Promise<PublicPage> {
  const [style, settings, tools] = await Promise.all([
    loadStyle(app.id),
    loadSettings(app.id),
    app.type === "generated" && !tool ? listTools(app.id) : Promise.resolve([]),
  ]);
  const parsed = AppContent.parse(app.content);
  // Apps made before the editor kept their name only in the header column.
  const appContent = { ...parsed, header: parsed.header || app.header };
  const toolContent = tool ? ToolContent.parse(tool.content) : null;
  const content =
    tool && toolContent ? { ...toolContent, header: toolContent.header || tool.title } : appContent;
  return {
    appId: app.id,
    appType: app.type,
    appHeader: appContent.header,
    content: publicContentOf(content),
    style: publicStyleOf(style.appStyle),
    watermarkHidden: style.appStyle.hideBuildAI ?? owner.caps.hideWatermarkByDefault,
    // The main page lists what visitors can open, for the builder too: it is their page as published.
    tools:
      app.type === "generated" && !tool
        ? tools.filter((t) => t.status === "active").map(publicTool)
        : undefined,
    draft: app.status !== "active" ? "app" : tool && tool.status !== "active" ? "tool" : false,
    mainPage: settings.appSettings.mainPage,
    title: content.header,
    published: app.status === "active",
    toolId: tool?.id ?? null,
    userCanEditResults: settings.appSettings.userCanEditResults,
    signInRequired: settings.appSettings.isSignupEnabled,
    // As runnerOf (lib/runs/access.ts) decides a preview: a builder's session, not an end user's.
    builderView: session !== null && session.tenantId === null && canEditApp(session, app),
  };
}

/** The app with its owner's plan (the watermark's default), if this viewer may see it. */
async function visibleApp(appId: string, session: Session | null): Promise<AppWithOwner | null> {
  const found = isUuid(appId) ? await findAppWithOwner(appId) : undefined;
  return found && canViewApp(session, found.app) ? found : null;
}

/** /app/{appId}: the app's main page, or null (404). */
export async function loadPublicApp(appId: string, session: Session | null): Promise<PublicPage | null> {
  const found = await visibleApp(appId, session);
  return found ? pageOf(found, null, session) : null;
}

/**
 * /app/{appId}/tool/{toolPath}: a tool of a generated app. Visitors get active tools only; the
 * builder also sees a draft tool, with the banner. Null when there is none (404 with 'Tool with
 * path {path} not found').
 */
export async function loadPublicAppTool(
  appId: string,
  toolPath: string,
  session: Session | null,
): Promise<PublicPage | null> {
  if (!TOOL_PATH.test(toolPath)) return null;
  const found = await visibleApp(appId, session);
  if (found?.app.type !== "generated") return null;
  const tool = await findToolByPath(found.app.id, toolPath);
  if (!tool) return null;
  if (tool.status !== "active" && !(session && canEditApp(session, found.app))) return null;
  return pageOf(found, tool, session);
}

/** /tool/{path}: the oldest active tool with this path among published apps, or null (404). */
export async function loadPublicToolByPath(path: string): Promise<PublicPage | null> {
  if (!TOOL_PATH.test(path)) return null;
  const found = await findPublishedToolByPath(path);
  // Served to everybody alike: no viewer's view.
  if (!found) return null;
  return pageOf({ app: found.app, owner: await ownerPlan(found.app.ownerAccountId) }, found.tool, null);
}
