import { z } from "zod";
import {
  CHAT_HISTORY_PAGE_SIZE,
  RATING_COMMENT_MAX,
  RATING_MAX,
  RATING_MIN,
  SPACE_FILES_MAX,
  SPACE_PATH_MAX,
  VERSIONS_LIST_DEFAULT,
  VERSIONS_LIST_MAX,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import { storableString } from "@/lib/storable-text";
import { ChatAction, ChatUsage } from "./chat-schemas";

/** What a file of a space app is, by its path (lib/space/files.ts fileTypeOf). */
export const FILE_TYPES = [
  "pages",
  "components",
  "services",
  "functions",
  "entities",
  "layout",
  "globals css",
  "other",
] as const;

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

/**
 * GET /api/apps/{id}/versions/{versionId}?files=none: the version and what it changed, without the
 * files' contents (the changes dialog reads one file at a time).
 */
export const VersionDetailQuery = z.object({
  /** none: without the files' contents (the changes only). */
  files: z.enum(["all", "none"]).default("all"),
  /**
   * What the changes are against: the version's parent (what the version changed), or the app's
   * current files (what merging the version would change: added and modified are the version's).
   */
  against: z.enum(["parent", "current"]).default("parent"),
  /** first: the first changed file, in the dialogs' order, comes with both its sides (firstFile). */
  sides: z.enum(["none", "first"]).default("none"),
});
export type VersionDetailQuery = z.infer<typeof VersionDetailQuery>;

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

/**
 * POST /api/apps/{appId}/merge: files to bring into the current ones (a version's, or a repair's),
 * by path; `id` is the caller's own handle of the file, `content` null marks a deletion (not merged).
 */
export const MergeBody = z
  .object({
    files: z
      .array(z.object({ id: storableString().max(200).optional(), path, content: content.nullable() }))
      .max(SPACE_FILES_MAX),
    description: storableString().max(500).optional(),
    /** The files are a repair's result (Apply): the chat's notice is an autofix one. */
    autofix: z.boolean().optional(),
  })
  .meta({
    examples: [
      {
        files: [
          { id: "pages/Home.jsx", path: "pages/Home.jsx", content: "export default () => <h1>Hi</h1>;\n" },
        ],
        description: "Merged the home page of version 3",
      },
    ],
  });
export type MergeBody = z.infer<typeof MergeBody>;

// ---- answers (what the routes send, as the client receives it) ----

/** A moment as the answers write it: ISO 8601 in UTC (Date.toISOString). */
const isoTime = z.iso.datetime();
const count = z.number().int().min(0);

/** How a version was made (db/schema/space.ts VERSION_KINDS). */
const VersionKind = z.enum(["chat", "restore", "undo_restore", "edit", "merge"]);
/** How a version changed a file (db/schema/space.ts FILE_CHANGES). */
export const FileChangeStatus = z.enum(["added", "modified", "deleted"]);

/** "Version: id, timestamp or createdAt, messageId, content, userRequest, description, files, metadata". */
export const VersionAnswer = z.object({
  id: z.uuid(),
  number: z.number().int().min(1),
  kind: VersionKind,
  createdAt: isoTime,
  /** createdAt in milliseconds since the epoch. */
  timestamp: z.number().int(),
  messageId: z.uuid().nullable(),
  parentId: z.uuid().nullable(),
  userRequest: z.string(),
  description: z.string(),
  fileCount: count,
  isCurrent: z.boolean(),
  /** How many files it added, modified and deleted; a restore or undo names the version it restored. */
  metadata: z.object({
    added: count,
    modified: count,
    deleted: count,
    restoredFromVersionId: z.uuid().optional(),
  }),
});

/** A rating of an answer (POST /api/apps/{appId}/rating), also on the message it rates. */
export const RatingAnswer = z.object({
  score: z.number().int().min(RATING_MIN).max(RATING_MAX),
  feedback: z.array(z.string()),
  comment: z.string().nullable(),
  createdAt: isoTime,
});

/** "systemActionInfo (type autofix, restore or undo_restore; restoredVersionDate; revertedFromMessageId)" */
export const SystemActionInfo = z.object({
  type: z.enum(["autofix", "restore", "undo_restore"]),
  restoredVersionDate: isoTime.nullable().optional(),
  revertedFromMessageId: z.uuid().optional(),
  restoredVersionId: z.uuid().nullable().optional(),
});

/**
 * "annotations[0] with versionId, status (failed marks an error), usage, rating, contextFiles,
 * contextMetadata, systemActionInfo, discussModeMetadata".
 */
export const MessageAnnotation = z.object({
  versionId: z.uuid().nullable(),
  /** The number of that version, as the Versions dialog names it ("Version N"). */
  versionNumber: z.number().int().nullable(),
  status: z.enum(["streaming", "incomplete", "complete", "truncated", "failed"]),
  usage: ChatUsage.nullable(),
  rating: RatingAnswer.nullable(),
  /** The paths of the app's files the answer's prompt held. */
  contextFiles: z.array(z.string()).nullable(),
  contextMetadata: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      "Free-form: how the prompt's files were chosen (retrievedFiles, relevantFiles, belowThresholdFiles...)",
    ),
  systemActionInfo: SystemActionInfo.nullable(),
  discussModeMetadata: z.object({ isDiscussMode: z.boolean() }),
});

/** "Chat message: id, role, content, parts, experimental_attachments, ..., createdAt, annotations[0]" */
export const ChatMessageAnswer = z.object({
  id: z.uuid(),
  role: z.enum(["user", "assistant"]),
  kind: z.enum(["message", "restore", "undo_restore", "autofix", "merge"]),
  content: z.string(),
  parts: z
    .array(z.looseObject({ type: z.string() }))
    .describe(
      "The AI SDK's UI message parts in the order written: text ({ type, text }) and data-action ({ type, id, data: a chat action })",
    ),
  experimental_attachments: z
    .array(z.unknown())
    .describe("Free-form: the attachments the message was sent with, as sent"),
  /** The chat actions of an answer. */
  actions: z.array(ChatAction),
  /** Why a failed answer failed, when known. */
  error: z.string().nullable(),
  createdAt: isoTime,
  annotations: z.tuple([MessageAnnotation]),
});

/** GET /api/apps/{appId}/chat/history: a page of messages, oldest first, and whether earlier ones exist. */
export const HistoryAnswer = z.object({ messages: z.array(ChatMessageAnswer), hasMore: z.boolean() });

/** POST /api/apps/{appId}/chat/activate: the chat assistant's state (chatAppId: the same id every time). */
export const ChatAssistantAnswer = z.object({
  chatAppId: z.uuid().nullable(),
  status: z.enum(["active", "draft"]),
  isActive: z.boolean(),
});

/** POST /api/apps/{appId}/rating */
export const RateAnswer = z.object({ rating: RatingAnswer });

/** GET /api/apps/{id}/versions: "the latest 10 plus the current one with an intermediate count". */
export const VersionListAnswer = z.object({
  /** The latest versions, newest first. */
  versions: z.array(VersionAnswer),
  /** The current version (also in `versions` when it is one of the latest); null before the first. */
  current: VersionAnswer.nullable(),
  /** Versions between the oldest listed and the current one. */
  intermediateCount: count,
  total: count,
});

/** "App file item: name, path, type, content, language, readOnly". */
export const AppFileAnswer = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  type: z.enum(FILE_TYPES),
  language: z.string(),
  readOnly: z.boolean(),
  content: z.string(),
});

/** A changed file with both its sides: the version's (content) and the other's (previousContent). */
export const ChangedFileSides = z.object({
  path: z.string(),
  status: FileChangeStatus,
  /** The file in the version; null when it has none (deleted). */
  content: z.string().nullable(),
  /** The file in the parent, or in the current files (against=current); null when there is none. */
  previousContent: z.string().nullable(),
});
export type ChangedFileSides = z.infer<typeof ChangedFileSides>;

/** GET /api/apps/{id}/versions/{versionId}: the version, its files, and what it changed against its parent. */
export const VersionDetailAnswer = z.object({
  version: VersionAnswer,
  files: z.array(AppFileAnswer),
  changes: z.array(z.object({ path: z.string(), status: FileChangeStatus })),
  /** sides=first: the first of `changes` in the dialogs' order, with both sides; null when nothing changed. */
  firstFile: ChangedFileSides.nullable().optional(),
});

/** POST .../restore and .../undo-restore: the restore (or undo) message and the version it made. */
export const RestoreAnswer = z.object({ messages: z.array(ChatMessageAnswer), version: VersionAnswer });

/** POST .../revert: the messages that left the conversation and the version the app is back at. */
export const RevertAnswer = z.object({ removedMessageIds: z.array(z.uuid()), version: VersionAnswer });

/** Who may read or write an entity's records: its schema's x-accessControl.permissions ("creator" by default). */
export const ACCESS_LEVELS = ["anonymous", "all", "admin", "creator", "none"] as const;

export const EntityField = z.object({
  /** The property's name; a nested property's is dotted (address.city). */
  name: z.string(),
  /** The JSON schema type ("string", "number", "array"...); types of a union joined by " or ". */
  type: z.string(),
  format: z.string().nullable(),
  enum: z.array(z.string()).nullable(),
  /** An array's item type. */
  items: z.string().nullable(),
  /** The options of an array's items when they are an enum (a multiselect column). */
  itemEnum: z.array(z.string()).nullable(),
  /** A text's most characters (the schema's maxLength), if it sets one. */
  maxLength: z.number().int().min(0).nullable().optional(),
  required: z.boolean(),
  /** id, creatorId and createdAt: every row has them. */
  builtIn: z.boolean(),
});

export const EntityAnswer = z.object({
  name: z.string(),
  path: z.string(),
  fields: z.array(EntityField),
  access: z.object({ read: z.enum(ACCESS_LEVELS), write: z.enum(ACCESS_LEVELS) }),
});

/** GET /api/apps/{appId}/entities: the current version's entities but User, by name. */
export const EntityListAnswer = z.object({ entities: z.array(EntityAnswer) });
