import "server-only";
import crypto from "node:crypto";
import { findRunTarget } from "@/db/queries/runs";
import type { App, RunKind, Tool } from "@/db/schema";
import { canEditApp, isUuid } from "@/lib/apps/access";
import { normalizeField } from "@/lib/apps/field-rules";
import { AppContent, AppSettings, type CustomField, ToolContent } from "@/lib/apps/schemas";
import type { Session } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// Who runs a tool and which tool it is. The role is the server's to decide, from the session and
// the app alone:
// - preview: the app's builder (its owner, or an admin) - drafts included, free of the app's run
//   limits (the builder's model budget holds it);
// - end_user: a session of this app's own tenant;
// - visitor: anybody else. A session of another app counts for nothing here, as the public page
//   shows it signed out: an end user of app A is never anybody in app B.

export type Runner = {
  kind: RunKind;
  /** The end user, or the builder of a preview; null for a visitor. */
  userId: string | null;
  /** Whose limits the run counts in. */
  subject: string;
};

export function runnerOf(
  session: Session | null,
  app: Pick<App, "id" | "ownerAccountId">,
  ip: string,
): Runner {
  if (session && session.tenantId === null && canEditApp(session, app)) {
    return { kind: "preview", userId: session.userId, subject: `preview:${session.userId}` };
  }
  if (session && session.tenantId === app.id) {
    return { kind: "end_user", userId: session.userId, subject: `user:${session.userId}` };
  }
  return { kind: "visitor", userId: null, subject: `visitor:${visitorKey(ip)}` };
}

/** A visitor's address, kept only as a keyed hash: the limits need to tell visitors apart, not to know them. */
function visitorKey(ip: string): string {
  return crypto.createHmac("sha256", env().AUTH_SECRET).update(`run-visitor:${ip}`).digest("base64url");
}

/** What a run needs of its app: the tool's content, its fields as the editor keeps them, the settings. */
export type RunTarget = {
  app: App;
  tool: Tool | null;
  content: ToolContent;
  fields: CustomField[];
  settings: AppSettings;
};

/**
 * The app and tool to run, for this caller. A draft app, a draft tool or a tool that is not the
 * app's is the same 404 as one that does not exist, unless the caller is the app's builder.
 */
export async function loadRunTarget(
  appId: string,
  toolId: string | null | undefined,
  session: Session | null,
): Promise<{ target: RunTarget; preview: boolean }> {
  if (!isUuid(appId)) throw new AppError("NOT_FOUND", "appNotFound");
  // The app, its settings and the named tool in one read: the checks below decide which of them
  // count, in the same order as if they were read one after the other.
  const row = await findRunTarget(appId, toolId ?? null);
  const app = row?.app;
  const found = row?.tool ?? undefined;
  const preview = !!app && !!session && session.tenantId === null && canEditApp(session, app);
  if (!app || (app.status !== "active" && !preview)) throw new AppError("NOT_FOUND", "appNotFound");

  let tool: Tool | null = null;
  if (app.type === "generated") {
    if (!found || (found.status !== "active" && !preview)) throw new AppError("NOT_FOUND", "toolNotFound");
    tool = found;
  } else if (app.type === "space" || toolId) {
    // A space app has no tool form to run; a single-tool app is its own tool.
    throw new AppError("NOT_FOUND", "toolNotFound");
  }

  const settings = AppSettings.parse(row.settings ?? {});
  const content = tool ? ToolContent.parse(tool.content) : ToolContent.parse(AppContent.parse(app.content));
  // The fields as the editor keeps them: memorize only with signup, filters only for smart filtering.
  const fields = content.fields.map((f) => normalizeField(f, settings));
  return { target: { app, tool, content, fields, settings }, preview };
}
