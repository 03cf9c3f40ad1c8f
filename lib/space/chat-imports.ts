import "server-only";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import type { ChatPart } from "./chat-schemas";

// The chat's import_entities actions, once their answer is stored: each complete one starts the
// CSV import its body asks for (the same importer as the Database panel's upload, given by the
// chat route: lib/app-data/chat-import.ts, which the space domain may not import), and the action
// keeps the import's id for its card to follow, or why none was started.

/** Starts the import an action's body asks for (by the builder `userId`); answers its id or throws AppError. */
export type ChatImporter = (
  app: App,
  userId: string,
  entity: string,
  body: unknown,
) => Promise<{ importId: string }>;

/**
 * The answer's parts with each complete import_entities action's import started: applied with its
 * importId, or not applied with its importProblem. Null when the answer has no such action.
 */
export async function startAnswerImports(
  app: App,
  userId: string,
  parts: ChatPart[],
  importer: ChatImporter,
): Promise<ChatPart[] | null> {
  if (!parts.some((p) => p.type === "data-action" && isImport(p.data))) return null;
  const out: ChatPart[] = [];
  for (const p of parts) {
    if (p.type !== "data-action" || !isImport(p.data)) {
      out.push(p);
      continue;
    }
    try {
      const { importId } = await importer(app, userId, p.data.name!, p.data.data);
      out.push({ ...p, data: { ...p.data, applied: true, importId } });
    } catch (err) {
      if (!(err instanceof AppError)) logError("space chat: an import could not start", { app: app.id, err });
      const importProblem = err instanceof AppError ? err.message : messages.csvImportFailed;
      out.push({ ...p, data: { ...p.data, applied: false, importProblem } });
    }
  }
  return out;
}

const isImport = (a: { type: string; status: string; name: string | null }) =>
  a.type === "import_entities" && a.status === "complete" && !!a.name;
