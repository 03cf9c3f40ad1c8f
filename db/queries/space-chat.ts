import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import {
  type ChatAssistant,
  type ChatMessage,
  chatAssistants,
  chatMessages,
  type Rating,
  ratings,
  versions,
} from "../schema";

// Data access of space apps' chat (lib/space): messages, ratings and the chat assistant. Every
// query names the app: a tenant's rows are never read by id alone.

// ---- chat messages ----

export async function insertChatMessage(values: typeof chatMessages.$inferInsert, ex: Executor = db()) {
  const [row] = await ex.insert(chatMessages).values(values).returning();
  return row!;
}

export async function findChatMessage(
  appId: string,
  id: string,
  ex: Executor = db(),
): Promise<ChatMessage | undefined> {
  const [row] = await ex
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.appId, appId), eq(chatMessages.id, id)));
  return row;
}

export async function updateChatMessage(
  appId: string,
  id: string,
  values: Partial<typeof chatMessages.$inferInsert>,
  ex: Executor = db(),
  opts: { onlyStreaming?: boolean } = {},
): Promise<ChatMessage | undefined> {
  const [row] = await ex
    .update(chatMessages)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.id, id),
        opts.onlyStreaming ? eq(chatMessages.status, "streaming") : undefined,
      ),
    )
    .returning();
  return row;
}

/** A message with its rating and the number of its version ("Version N", as the Versions dialog says). */
export type ChatMessageWithRating = ChatMessage & { rating: Rating | null; versionNumber: number | null };

/**
 * A page of the conversation, newest first: the `limit` messages before `beforeSeq` (the newest
 * when null). Removed messages are not part of it.
 */
export async function listChatPage(
  appId: string,
  beforeSeq: number | null,
  limit: number,
  ex: Executor = db(),
): Promise<ChatMessageWithRating[]> {
  const rows = await ex
    .select({ message: chatMessages, rating: ratings, versionNumber: versions.number })
    .from(chatMessages)
    .leftJoin(ratings, eq(ratings.messageId, chatMessages.id))
    .leftJoin(versions, eq(versions.id, chatMessages.versionId))
    .where(
      and(
        eq(chatMessages.appId, appId),
        isNull(chatMessages.removedAt),
        beforeSeq === null ? undefined : lt(chatMessages.seq, beforeSeq),
      ),
    )
    .orderBy(desc(chatMessages.seq))
    .limit(limit);
  return rows.map((r) => ({ ...r.message, rating: r.rating, versionNumber: r.versionNumber }));
}

/** The messages after `seq` still in the conversation. */
export async function listLiveMessagesAfter(appId: string, seq: number, ex: Executor = db()) {
  return ex
    .select({ id: chatMessages.id, status: chatMessages.status, role: chatMessages.role })
    .from(chatMessages)
    .where(and(eq(chatMessages.appId, appId), gt(chatMessages.seq, seq), isNull(chatMessages.removedAt)))
    .orderBy(asc(chatMessages.seq));
}

/** Takes messages out of the conversation (their versions, usage and ratings stay). */
export async function removeChatMessages(appId: string, ids: string[], ex: Executor = db()) {
  if (ids.length === 0) return;
  await ex
    .update(chatMessages)
    .set({ removedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(chatMessages.appId, appId), inArray(chatMessages.id, ids)));
}

/** The last user message still in the conversation. */
export async function findLastUserMessage(appId: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.appId, appId), eq(chatMessages.role, "user"), isNull(chatMessages.removedAt)))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  return row;
}

/**
 * The bodies of the request_secrets actions of the conversation, oldest first: what the chat
 * asked the builder for, with descriptions (lib/secrets/requests.ts reads them).
 */
export async function listSecretRequestBodies(appId: string, ex: Executor = db()): Promise<unknown[]> {
  const rows = await ex
    .select({ data: sql<unknown>`action->'data'` })
    .from(sql`${chatMessages}, jsonb_array_elements(${chatMessages.actions}) AS action`)
    .where(
      and(
        eq(chatMessages.appId, appId),
        isNull(chatMessages.removedAt),
        sql`${chatMessages.actions} @> '[{"type":"request_secrets"}]'::jsonb`,
        sql`action->>'type' = 'request_secrets'`,
      ),
    )
    .orderBy(asc(chatMessages.seq));
  return rows.map((r) => r.data);
}

export async function findStreamingMessage(appId: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.status, "streaming"),
        isNull(chatMessages.removedAt),
      ),
    );
  return row;
}

/** Answers left 'streaming' since before `before` lost their server: they end as incomplete. */
export async function endStaleStreaming(appId: string, before: Date, ex: Executor = db()) {
  await ex
    .update(chatMessages)
    .set({ status: "incomplete", updatedAt: new Date() })
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.status, "streaming"),
        lte(chatMessages.updatedAt, before),
      ),
    );
}

/** Whether a restore message has been undone (an undo_restore message names it). */
export async function findUndoOf(appId: string, restoreMessageId: string, ex: Executor = db()) {
  const [row] = await ex
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.kind, "undo_restore"),
        sql`${chatMessages.systemAction}->>'revertedFromMessageId' = ${restoreMessageId}`,
      ),
    )
    .limit(1);
  return row;
}

// ---- ratings ----

/** The rating, or null when the message was rated already (one rating per message). */
export async function insertRating(values: typeof ratings.$inferInsert, ex: Executor = db()) {
  const [row] = await ex
    .insert(ratings)
    .values(values)
    .onConflictDoNothing({ target: ratings.messageId })
    .returning();
  return row ?? null;
}

// ---- the chat assistant ----

export async function findChatAssistant(
  appId: string,
  ex: Executor = db(),
): Promise<ChatAssistant | undefined> {
  const [row] = await ex.select().from(chatAssistants).where(eq(chatAssistants.appId, appId));
  return row;
}

export async function setChatAssistantStatus(
  appId: string,
  status: ChatAssistant["status"],
  ex: Executor = db(),
): Promise<ChatAssistant> {
  const [row] = await ex
    .insert(chatAssistants)
    .values({ appId, status })
    .onConflictDoUpdate({ target: chatAssistants.appId, set: { status, updatedAt: new Date() } })
    .returning();
  return row!;
}
