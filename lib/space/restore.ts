import "server-only";
import type { z } from "zod";
import {
  findChatMessage,
  findLastUserMessage,
  findUndoOf,
  insertChatMessage,
  listLiveMessagesAfter,
  removeChatMessages,
  updateChatMessage,
} from "@/db/queries/space-chat";
import { findVersion } from "@/db/queries/space-versions";
import type { App, ChatMessage, Version } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import {
  assertChatIdle,
  assertSpaceApp,
  commitTree,
  currentHead,
  type Locked,
  moveHead,
  treeOf,
  withSpaceLock,
} from "./commit";
import type { RestoreBody, RevertAnswer as RevertAnswerSchema, RevertBody, UndoRestoreBody } from "./schemas";
import {
  type ChatMessageView,
  chatMessageView,
  type SystemActionInfo,
  type VersionSummary,
  versionSummary,
} from "./views";

// Going back in a space app's history. Nothing here deletes a version: a restore and
// its undo are new versions equal to an earlier state, and a revert or a retry points the app
// back at a version it already has and takes the later messages out of the conversation; every
// earlier state stays listed and restorable.

/** "2026-03-01 14:05 UTC": a version's time in the text of a restore message (the UI shows its own). */
const when = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

async function liveMessage(tx: Locked, appId: string, id: string): Promise<ChatMessage> {
  const m = await findChatMessage(appId, id, tx);
  if (!m || m.removedAt) throw new AppError("NOT_FOUND", "chatMessageNotFound");
  return m;
}

async function versionOf(tx: Locked, appId: string, id: string): Promise<Version> {
  const v = await findVersion(appId, id, tx);
  if (!v) throw new AppError("NOT_FOUND", "versionNotFound");
  return v;
}

export type RestoreAnswer = { messages: ChatMessageView[]; version: VersionSummary };

/**
 * POST .../versions/{versionId}/restore: a restore message, and a new version with the files of
 * `versionId` (made from the current one, so undoing it goes back there).
 */
export async function restoreVersion(
  app: App,
  accountId: string,
  versionId: string,
  body: RestoreBody,
): Promise<RestoreAnswer> {
  assertSpaceApp(app);
  return withSpaceLock(app.id, async (tx) => {
    await assertChatIdle(tx, app.id);
    const target = await versionOf(tx, app.id, versionId);
    // The message the restore was asked from: the one this version is annotated on. A removed
    // message still names its version (a revert keeps versions restorable).
    const source = await findChatMessage(app.id, body.messageId, tx);
    if (!source) throw new AppError("NOT_FOUND", "chatMessageNotFound");
    if (source.versionId !== target.id)
      throw new AppError("BAD_REQUEST", "versionMessageMismatch", "VERSION_MISMATCH");
    const head = await currentHead(app.id, tx);
    if (head.versionId === target.id)
      throw new AppError("BAD_REQUEST", "restoreAlreadyCurrent", "ALREADY_CURRENT");
    const action: SystemActionInfo = {
      type: "restore",
      restoredVersionDate: target.createdAt.toISOString(),
      revertedFromMessageId: source.id,
      restoredVersionId: target.id,
    };
    return systemChange(tx, app.id, accountId, head.versionId, target.id, action, {
      content: fillTemplate(messages.restoreMessageContent, { date: when(target.createdAt) }),
      kind: "restore",
      description: `Restored version ${target.number}`,
    });
  });
}

/**
 * POST .../versions/{versionId}/undo-restore: back to the state before the restore of `messageId`,
 * as an undo_restore message and a new version. Only while the restore is still the current
 * state: once the app changed after it, the builder restores the version they want instead.
 */
export async function undoRestore(
  app: App,
  accountId: string,
  versionId: string,
  body: UndoRestoreBody,
): Promise<RestoreAnswer> {
  assertSpaceApp(app);
  return withSpaceLock(app.id, async (tx) => {
    await assertChatIdle(tx, app.id);
    const restore = await liveMessage(tx, app.id, body.messageId);
    if (restore.kind !== "restore" || restore.versionId !== versionId) {
      throw new AppError("BAD_REQUEST", "undoRestoreNotRestore", "NOT_A_RESTORE");
    }
    if (await findUndoOf(app.id, restore.id, tx)) {
      throw new AppError("CONFLICT", "undoRestoreAlreadyUndone", "ALREADY_UNDONE");
    }
    const head = await currentHead(app.id, tx);
    if (head.versionId !== versionId) throw new AppError("CONFLICT", "undoRestoreStale", "RESTORE_STALE");
    const restored = await versionOf(tx, app.id, versionId);
    // The state before the restore: the version it was made from (none: the app had no files).
    const before = restored.parentId ? await versionOf(tx, app.id, restored.parentId) : null;
    const action: SystemActionInfo = {
      type: "undo_restore",
      restoredVersionDate: before?.createdAt.toISOString() ?? null,
      revertedFromMessageId: restore.id,
      restoredVersionId: before?.id ?? null,
    };
    return systemChange(tx, app.id, accountId, head.versionId, before?.id ?? null, action, {
      content: fillTemplate(messages.undoRestoreMessageContent, {
        date: before ? when(before.createdAt) : when(restored.createdAt),
      }),
      kind: "undo_restore",
      description: before ? `Undid the restore: back to version ${before.number}` : "Undid the restore",
    });
  });
}

async function systemChange(
  tx: Locked,
  appId: string,
  accountId: string,
  headId: string | null,
  targetId: string | null,
  action: SystemActionInfo,
  text: { content: string; kind: "restore" | "undo_restore"; description: string },
): Promise<RestoreAnswer> {
  const message = await insertChatMessage(
    {
      appId,
      role: "assistant",
      kind: text.kind,
      status: "complete",
      content: text.content,
      systemAction: action,
      baseVersionId: headId,
      authorAccountId: accountId,
    },
    tx,
  );
  const version = (await commitTree(tx, appId, await treeOf(appId, targetId, tx), [], {
    kind: text.kind,
    messageId: message.id,
    accountId,
    restoredFromId: targetId,
    description: text.description,
    always: true,
  }))!;
  const annotated = (await updateChatMessage(appId, message.id, { versionId: version.id }, tx))!;
  return {
    messages: [chatMessageView(annotated, null, version.number)],
    version: versionSummary(version, version.id),
  };
}

export type RevertAnswer = z.infer<typeof RevertAnswerSchema>;

/**
 * POST .../versions/{versionId}/revert: "Reverting to a version removes all later messages".
 * The app goes back to the version of `messageId`; the later messages leave the
 * conversation only with `confirm` (409 CONFIRM_REQUIRED with their count otherwise). Their
 * versions stay listed and restorable.
 */
export async function revertToVersion(app: App, versionId: string, body: RevertBody): Promise<RevertAnswer> {
  assertSpaceApp(app);
  return withSpaceLock(app.id, async (tx) => {
    await assertChatIdle(tx, app.id);
    const version = await versionOf(tx, app.id, versionId);
    const message = await liveMessage(tx, app.id, body.messageId);
    if (message.versionId !== version.id)
      throw new AppError("BAD_REQUEST", "versionMessageMismatch", "VERSION_MISMATCH");
    const later = await listLiveMessagesAfter(app.id, message.seq, tx);
    if (later.length > 0 && !body.confirm) {
      throw new AppError(
        "CONFLICT",
        { key: "revertConfirmRequired", vars: { n: later.length } },
        "CONFIRM_REQUIRED",
        { removeCount: later.length },
      );
    }
    await removeChatMessages(
      app.id,
      later.map((m) => m.id),
      tx,
    );
    await moveHead(tx, app.id, version.id);
    return { removedMessageIds: later.map((m) => m.id), version: versionSummary(version, version.id) };
  });
}

export type RetryPrepared = {
  message: ChatMessageView;
  removedMessageIds: string[];
  versionId: string | null;
};

/**
 * Before the chat answers a user message again: "Retry works only on the last user message"
 * ('You can only retry the last message.'). The answers after it leave the
 * conversation and the files go back to the state the message was sent on; the versions those
 * answers made stay restorable. The chat stream then writes the new answer.
 */
export async function prepareRetry(app: App, messageId: string): Promise<RetryPrepared> {
  assertSpaceApp(app);
  return withSpaceLock(app.id, async (tx) => {
    await assertChatIdle(tx, app.id);
    const message = await liveMessage(tx, app.id, messageId);
    const last = await findLastUserMessage(app.id, tx);
    if (message.role !== "user" || last?.id !== message.id) {
      throw new AppError("BAD_REQUEST", "chatRetryOnlyLast", "RETRY_NOT_LAST");
    }
    const later = await listLiveMessagesAfter(app.id, message.seq, tx);
    await removeChatMessages(
      app.id,
      later.map((m) => m.id),
      tx,
    );
    await moveHead(tx, app.id, message.baseVersionId);
    return {
      message: chatMessageView(message),
      removedMessageIds: later.map((m) => m.id),
      versionId: message.baseVersionId,
    };
  });
}
