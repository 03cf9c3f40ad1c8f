import "server-only";
import type { App } from "@/db/schema";
import { describeError } from "@/lib/ai/describe-error";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import type { ActionParser } from "./action-parser";
import { failAnswer, finishAnswer, saveAnswerActions, saveAnswerProgress } from "./chat";
import { fileChangeOf } from "./chat-actions";
import type { AnswerParts } from "./chat-answer-parts";
import type { AnswerProgress } from "./chat-answer-progress";
import type { AnswerPrompt } from "./chat-answer-prompt";
import { type ChatImporter, startAnswerImports } from "./chat-imports";
import type { ChatMessageMetadata, ChatPart, ChatStreamPart, ChatUsage } from "./chat-schemas";
import { currentTree } from "./commit";
import { type RecordBatch, recordsOfAction } from "./entity-records";
import { entityNameOf } from "./files";
import type { FileChange } from "./schemas";

// How an answer of the space chat ends, stored once and told to the client: ended whole, cut by
// the output cap, or stopped by the builder, with its complete changes applied as one version
// (endAnswer); or failed, with nothing of it applied (failStreamedAnswer).

/** What the end of an answer works on: the answer being streamed. */
export type StreamedAnswer = {
  app: App;
  accountId: string;
  /** Who the records it inserts are created by: the builder's user id. */
  creatorId: string;
  messageId: string;
  discussMode: boolean;
  /** Starts an import_entities action's import (none: such actions stay stored only). */
  startImport?: ChatImporter;
  parts: AnswerParts;
  progress: AnswerProgress;
  send: (part: ChatStreamPart) => void;
  metadata: (
    status: ChatMessageMetadata["status"],
    extra?: Partial<Pick<ChatMessageMetadata, "versionId" | "usage" | "error">>,
  ) => ChatMessageMetadata;
};

/** The answer ended whole, cut by the output cap, or stopped by the builder: stored, its complete changes applied. */
export async function endAnswer(
  answer: StreamedAnswer,
  parser: ActionParser,
  status: "complete" | "truncated" | "incomplete",
  prompt: AnswerPrompt,
  usage: ChatUsage,
  finishReason: string,
) {
  const { parts } = answer;
  parts.handle(parser.finish());
  parts.closeText();
  if (status === "incomplete") parts.markStopped();
  else parts.refreshActions();
  await answer.progress.settled();

  const changes: FileChange[] = [];
  const records: RecordBatch[] = [];
  const applied = new Set<string>();
  try {
    if (!answer.discussMode) {
      for (const action of parts.actions()) {
        const change = fileChangeOf(action);
        if (change) {
          changes.push(change);
          applied.add(action.id);
        }
      }
      for (const batch of await recordBatches(answer, changes)) {
        records.push(batch);
        applied.add(batch.actionId);
      }
    }
  } catch (err) {
    return failStreamedAnswer(answer, describeError(err), null, usage, prompt.context);
  }
  const stored = parts.list.map((p) =>
    p.type === "data-action" && applied.has(p.id) ? { ...p, data: { ...p.data, applied: true } } : p,
  );
  let done: Awaited<ReturnType<typeof finishAnswer>>;
  try {
    done = await finishAnswer(answer.app, answer.accountId, answer.messageId, {
      status,
      content: parts.prose(),
      parts: stored,
      actions: stored.flatMap((p) => (p.type === "data-action" ? [p.data] : [])),
      usage,
      changes,
      records,
      userRequest: prompt.userRequest,
      description: versionDescription(parts.prose()),
      ...prompt.context,
    });
  } catch (err) {
    // A change that cannot apply (a partial edit whose part is not there): nothing is applied.
    return failStreamedAnswer(answer, describeError(err), null, usage, prompt.context);
  }
  // The imports its actions ask for start now that the version holds any entity the answer adds.
  const shown = (await startImports(answer, stored)) ?? stored;
  for (const p of shown) {
    if (p.type === "data-action" && (p.data.applied || p.data.importProblem))
      answer.send({ type: "data-action", id: p.id, data: p.data });
  }
  const versionId = done.version?.id ?? null;
  if (done.version) answer.send({ type: "data-version", id: done.version.id, data: done.version });
  answer.send({
    type: "finish",
    finishReason,
    messageMetadata: answer.metadata(status, { versionId, usage }),
  });
}

/**
 * The answer failed: stored as failed with its cause, nothing of it applied; the client is told.
 * `context`: the files of its prompt when the model was called (none when it failed before).
 */
export async function failStreamedAnswer(
  answer: StreamedAnswer,
  error: string,
  parser: ActionParser | null,
  usage: ChatUsage | null,
  context: AnswerPrompt["context"] | null = null,
) {
  const { app, messageId, parts } = answer;
  if (parser) parts.handle(parser.finish());
  parts.closeText();
  parts.refreshActions();
  await answer.progress.settled();
  try {
    await saveAnswerProgress(app, messageId, {
      content: parts.prose(),
      parts: parts.list,
      actions: parts.actions(),
    });
    await failAnswer(app, messageId, { error, content: parts.prose(), usage, ...context });
  } catch (err) {
    logError("space chat: the failed answer could not be stored", { messageId, err });
    // What it wrote cannot be stored: it still ends now, failed with its cause alone, so the chat
    // takes the next message at once instead of staying busy until the stale-answer check.
    await failAnswer(app, messageId, { error }).catch((err2) =>
      logError("space chat: the answer could not be failed", { messageId, err: err2 }),
    );
  }
  answer.send({ type: "message-metadata", messageMetadata: answer.metadata("failed", { usage, error }) });
  answer.send({ type: "error", errorText: messages.chatAssistantFailed });
}

/**
 * The records of the answer's complete insert_entity_records actions, for an entity the app has
 * or this answer adds; an action whose records cannot be stored (see recordsOfAction), or that
 * names no such entity, stays stored with the message only (Not applied).
 */
async function recordBatches(answer: StreamedAnswer, changes: FileChange[]): Promise<RecordBatch[]> {
  const inserts = answer.parts
    .actions()
    .filter((a) => a.type === "insert_entity_records" && a.status === "complete" && a.name);
  if (inserts.length === 0) return [];
  // The paths of the current version are enough: no file's content is read.
  const names = new Set([...(await currentTree(answer.app.id)).keys()].flatMap((p) => entityNameOf(p) ?? []));
  for (const c of changes) if (c.type === "add_entity" || c.type === "edit_entity") names.add(c.name);
  names.delete("User");
  return inserts.flatMap((a) => {
    const rows = names.has(a.name!) ? recordsOfAction(a.data, answer.creatorId) : null;
    return rows ? [{ actionId: a.id, entity: a.name!, records: rows }] : [];
  });
}

/**
 * Starts the answer's import_entities actions' imports and stores their outcome on the actions
 * (null when it has none, or in discuss mode). The answer is already stored: a failure here is
 * logged, and the actions stay as they were (Not applied).
 */
async function startImports(answer: StreamedAnswer, parts: ChatPart[]): Promise<ChatPart[] | null> {
  if (answer.discussMode || !answer.startImport) return null;
  try {
    const started = await startAnswerImports(answer.app, answer.creatorId, parts, answer.startImport);
    if (!started) return null;
    await saveAnswerActions(answer.app, answer.messageId, {
      parts: started,
      actions: started.flatMap((p) => (p.type === "data-action" ? [p.data] : [])),
    });
    return started;
  } catch (err) {
    logError("space chat: the answer's imports could not be stored", { messageId: answer.messageId, err });
    return null;
  }
}

/** A version's description: the first sentence or line of the answer's prose. */
function versionDescription(prose: string): string {
  const first = prose.split(/\n|(?<=[.!?])\s/)[0]?.trim() ?? "";
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}
