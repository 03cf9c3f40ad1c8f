import { z } from "zod";
import {
  CHAT_HISTORY_PAGE_SIZE,
  RATING_COMMENT_MAX,
  RATING_MAX,
  RATING_MIN,
  SPACE_PATH_MAX,
  VERSIONS_LIST_DEFAULT,
  VERSIONS_LIST_MAX,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import { storableString } from "@/lib/storable-text";

// Request shapes of the space app routes and the changes the chat applies to an app's
// files, shared by the routes, the services (lib/space), the chat view and the tests.

/** "Positive: I love it!, Clear explanations, ...", for scores of 4 and more. */
export const RATING_POSITIVE_REASONS = [
  messages.ratingReasonLoveIt,
  messages.ratingReasonClear,
  messages.ratingReasonFast,
  messages.ratingReasonUnderstood,
  messages.ratingReasonDesign,
] as const;

/** "Problem: Gets stuck in loops, ...", for scores below 4. */
export const RATING_PROBLEM_REASONS = [
  messages.ratingReasonLoops,
  messages.ratingReasonNoChanges,
  messages.ratingReasonPoorDesign,
  messages.ratingReasonBugs,
  messages.ratingReasonOffTopic,
  messages.ratingReasonSlow,
  messages.ratingReasonMisunderstands,
  messages.ratingReasonUnclear,
] as const;

/** A query value the client sends empty when it has none (`?fromMessageId=&limit=50`). */
const optionalId = z.preprocess((v) => (v === "" ? undefined : v), z.uuid().optional());

export const VersionParams = z.object({ appId: z.uuid(), versionId: z.uuid() });

/** GET /api/apps/{id}/versions (optional limit): the latest `limit` (10) plus the current one. */
export const VersionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(VERSIONS_LIST_MAX).default(VERSIONS_LIST_DEFAULT),
});

/** POST .../versions/{versionId}/restore: "Restoring a version needs a message id". */
export const RestoreBody = z
  .object({ messageId: z.uuid({ error: messages.restoreNeedsMessage }) })
  .meta({ examples: [{ messageId: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11" }] });
export type RestoreBody = z.infer<typeof RestoreBody>;

/** POST .../versions/{versionId}/undo-restore: the restore message to undo. */
export const UndoRestoreBody = z
  .object({ messageId: z.uuid() })
  .meta({ examples: [{ messageId: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11" }] });
export type UndoRestoreBody = z.infer<typeof UndoRestoreBody>;

/**
 * POST .../versions/{versionId}/revert (our path; the spec names the action, not its call): back
 * to the version of `messageId`, removing the later messages, which needs `confirm` when any.
 */
export const RevertBody = z
  .object({ messageId: z.uuid(), confirm: z.boolean().default(false) })
  .meta({ examples: [{ messageId: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11", confirm: true }] });
export type RevertBody = z.infer<typeof RevertBody>;

/** POST /api/apps/{appId}/rating: messageId, score, feedback, comment. */
export const RatingBody = z
  .object({
    messageId: z.uuid(),
    score: z.number().int().min(RATING_MIN).max(RATING_MAX),
    feedback: z
      .array(storableString().max(100))
      .max(RATING_POSITIVE_REASONS.length + RATING_PROBLEM_REASONS.length)
      .default([]),
    comment: storableString().max(RATING_COMMENT_MAX).nullish(),
  })
  .meta({
    examples: [
      {
        messageId: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11",
        score: 5,
        feedback: [],
        comment: "Just what I asked for",
      },
    ],
  });
export type RatingBody = z.infer<typeof RatingBody>;

/** GET /api/apps/{appId}/chat/history?fromMessageId={id}&limit=50: the page before that message. */
export const HistoryQuery = z.object({
  fromMessageId: optionalId,
  limit: z.coerce.number().int().min(1).max(CHAT_HISTORY_PAGE_SIZE).default(CHAT_HISTORY_PAGE_SIZE),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

/** POST /api/apps/{appId}/chat/activate: isActive. */
export const ActivateChatBody = z.object({ isActive: z.boolean() }).meta({ examples: [{ isActive: true }] });

// ---- changes to an app's files (the chat actions that write files) ----

const path = storableString().min(1).max(SPACE_PATH_MAX);
const content = storableString();

/**
 * add_file / edit_file write a whole file (created when missing); partial_edit replaces parts of
 * an existing file, each `find` appearing exactly once; delete_file removes one (nothing when it
 * is gone already); add_entity / edit_entity write an entity's schema, a JSON object, to
 * entities/{name}.json.
 */
export const FileChange = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["add_file", "edit_file"]), path, content }),
  z.object({
    type: z.literal("partial_edit"),
    path,
    edits: z.array(z.object({ find: storableString().min(1), replace: storableString() })).min(1),
  }),
  z.object({ type: z.literal("delete_file"), path }),
  z.object({ type: z.enum(["add_entity", "edit_entity"]), name: storableString().min(1).max(64), content }),
]);
export type FileChange = z.infer<typeof FileChange>;
