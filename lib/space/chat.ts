import "server-only";
import { isUniqueViolation } from "@/db/client";
import { insertEntityRecords, type NewEntityRecord } from "@/db/queries/entity-records";
import { findChatMessage, insertChatMessage, listChatPage, updateChatMessage } from "@/db/queries/space-chat";
import type { App, ChatMessageStatus } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { storable } from "@/lib/storable-text";
import { assertChatIdle, assertSpaceApp, currentHead, withSpaceLock } from "./commit";
import type { FileChange, HistoryQuery } from "./schemas";
import { applyFileChanges } from "./versions";
import { type ChatMessageView, chatMessageView, type VersionSummary, versionSummary } from "./views";

// The conversation of a space app: its history in pages, and the life of an answer
// for the chat stream: started (refused while another is being written), written to, finished
// with its changes applied as one version annotated on it, or failed.

export type HistoryPage = { messages: ChatMessageView[]; hasMore: boolean };

/**
 * GET /api/apps/{appId}/chat/history?fromMessageId={id}&limit=50: the `limit` messages before
 * `fromMessageId` (the latest without it), oldest first, and whether earlier ones exist.
 */
export async function listChatHistory(app: App, query: HistoryQuery): Promise<HistoryPage> {
  assertSpaceApp(app);
  let beforeSeq: number | null = null;
  if (query.fromMessageId) {
    const from = await findChatMessage(app.id, query.fromMessageId);
    if (!from) throw new AppError("NOT_FOUND", "messageNotInHistory");
    beforeSeq = from.seq;
  }
  const rows = await listChatPage(app.id, beforeSeq, query.limit + 1);
  const page = rows.slice(0, query.limit).reverse();
  return {
    messages: page.map((m) => chatMessageView(m, m.rating, m.versionNumber)),
    hasMore: rows.length > query.limit,
  };
}

export type NewUserMessage = {
  content: string;
  parts?: unknown[];
  attachments?: unknown[];
  contextFiles?: unknown[] | null;
};

export type Exchange = { userMessage: ChatMessageView | null; answer: ChatMessageView };

/**
 * Starts an answer (and records the user message it answers, when there is one: a 'Let's keep
 * going' continuation has none). Refused with 409 CHAT_BUSY while another answer of the app is
 * being written, so two tabs never write two answers at once.
 */
export async function startExchange(
  app: App,
  accountId: string,
  opts: { user?: NewUserMessage; discussMode?: boolean },
): Promise<Exchange> {
  assertSpaceApp(app);
  try {
    return await withSpaceLock(app.id, async (tx) => {
      await assertChatIdle(tx, app.id);
      const head = await currentHead(app.id, tx);
      const discussMode = opts.discussMode ?? false;
      const user = opts.user
        ? await insertChatMessage(
            {
              appId: app.id,
              role: "user",
              status: "complete",
              content: opts.user.content,
              parts: opts.user.parts ?? [],
              attachments: opts.user.attachments ?? [],
              contextFiles: opts.user.contextFiles ?? null,
              baseVersionId: head.versionId,
              discussMode,
              authorAccountId: accountId,
            },
            tx,
          )
        : null;
      const answer = await insertChatMessage(
        {
          appId: app.id,
          role: "assistant",
          status: "streaming",
          baseVersionId: head.versionId,
          discussMode,
          authorAccountId: accountId,
        },
        tx,
      );
      return { userMessage: user ? chatMessageView(user) : null, answer: chatMessageView(answer) };
    });
  } catch (err) {
    // The database's own guard (one streaming answer per app), should a writer skip the lock.
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", "chatBusy", "CHAT_BUSY");
    throw err;
  }
}

/** The files an answer's prompt held (contextFiles / contextMetadata), recorded once the model is called. */
export type AnswerContext = {
  contextFiles?: unknown[] | null;
  contextMetadata?: Record<string, unknown> | null;
};

/**
 * Saves what an answer has so far, or the files of its prompt (and tells the stale-answer check its
 * server is alive); streaming answers only.
 */
export async function saveAnswerProgress(
  app: App,
  messageId: string,
  progress: { content?: string; parts?: unknown[]; actions?: unknown[] } & AnswerContext,
): Promise<void> {
  const m = await updateChatMessage(app.id, messageId, storable(progress), undefined, {
    onlyStreaming: true,
  });
  if (!m) throw new AppError("CONFLICT", "chatAnswerNotStreaming", "NOT_STREAMING");
}

export type FinishedAnswer = AnswerContext & {
  status: Exclude<ChatMessageStatus, "streaming" | "failed">;
  content: string;
  parts?: unknown[];
  actions?: unknown[];
  usage?: Record<string, unknown> | null;
  /** The complete file actions of the answer, applied as one version. */
  changes?: FileChange[];
  /** Records its insert_entity_records actions add (data: no version holds them). */
  records?: { entity: string; records: NewEntityRecord[] }[];
  userRequest?: string;
  description?: string;
};

/**
 * Ends an answer: its changes become one version annotated on it ("Every assistant message that
 * changes files creates a version"), in the same transaction as the message. A change that
 * cannot apply (a partial edit whose part is not there) throws and writes nothing: the caller
 * then fails the answer.
 */
export async function finishAnswer(
  app: App,
  accountId: string,
  messageId: string,
  answer: FinishedAnswer,
): Promise<{ message: ChatMessageView; version: VersionSummary | null }> {
  assertSpaceApp(app);
  // The model wrote it: what PostgreSQL cannot hold (a NUL) is dropped, in files and records too.
  answer = storable(answer);
  return withSpaceLock(app.id, async (tx) => {
    const m = await findChatMessage(app.id, messageId, tx);
    if (m?.role !== "assistant") throw new AppError("NOT_FOUND", "chatMessageNotFound");
    if (m.status !== "streaming" || m.removedAt) {
      throw new AppError("CONFLICT", "chatAnswerNotStreaming", "NOT_STREAMING");
    }
    const version =
      answer.changes && answer.changes.length > 0 && !m.discussMode
        ? await applyFileChanges(
            app.id,
            answer.changes,
            {
              kind: "chat",
              messageId: m.id,
              accountId,
              userRequest: answer.userRequest,
              description: answer.description,
            },
            tx,
          )
        : null;
    if (!m.discussMode) {
      for (const batch of answer.records ?? []) {
        await insertEntityRecords(app.id, batch.entity, batch.records, tx);
      }
    }
    const updated = (await updateChatMessage(
      app.id,
      m.id,
      {
        status: answer.status,
        content: answer.content,
        parts: answer.parts ?? m.parts,
        actions: answer.actions ?? m.actions,
        usage: answer.usage ?? null,
        contextFiles: answer.contextFiles ?? m.contextFiles,
        contextMetadata: answer.contextMetadata ?? m.contextMetadata,
        versionId: version?.id ?? null,
      },
      tx,
    ))!;
    return {
      message: chatMessageView(updated, null, version?.number ?? null),
      version: version ? versionSummary(version, version.id) : null,
    };
  });
}

/**
 * Writes a finished answer's parts and actions again, once its import_entities actions started
 * their imports (after the answer's version, which may add their entity): each keeps its import.
 */
export async function saveAnswerActions(
  app: App,
  messageId: string,
  progress: { parts: unknown[]; actions: unknown[] },
): Promise<void> {
  await updateChatMessage(app.id, messageId, storable(progress));
}

/**
 * Fails a streaming answer ("annotation status failed offers retry"): nothing of it is applied. An
 * answer that reached the model keeps the files of its prompt (given here, or saved when it started).
 */
export async function failAnswer(
  app: App,
  messageId: string,
  failure: AnswerContext & { error: string; content?: string; usage?: Record<string, unknown> | null },
): Promise<ChatMessageView> {
  failure = storable(failure);
  const m = await updateChatMessage(
    app.id,
    messageId,
    {
      status: "failed",
      error: failure.error,
      ...(failure.content !== undefined ? { content: failure.content } : {}),
      ...(failure.usage !== undefined ? { usage: failure.usage } : {}),
      ...(failure.contextFiles !== undefined ? { contextFiles: failure.contextFiles } : {}),
      ...(failure.contextMetadata !== undefined ? { contextMetadata: failure.contextMetadata } : {}),
    },
    undefined,
    { onlyStreaming: true },
  );
  if (!m) throw new AppError("CONFLICT", "chatAnswerNotStreaming", "NOT_STREAMING");
  return chatMessageView(m);
}
