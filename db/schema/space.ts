import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { apps } from "./apps";

// Space apps: the chat with the assistant that writes the app, the app's
// files, and a version per change. Content lives once per app in `space_blobs`, addressed by its
// SHA-256; a version stores only the paths that changed against its parent (`version_files`), so
// a one-file change costs about that file, not the app. Every `SNAPSHOT_INTERVAL`-th version in a
// chain lists every path (hashes only), so reading any version walks a bounded chain. See
// lib/space/.
//
// Ids of versions and hashes of blobs are written by lib/space under the app's lock, after the
// rows they name, and those rows are deleted only with the app; they carry no foreign keys: each
// would make deleting an app look up every deleted version or blob in an unindexed column.

/** A file's content, stored once per app whatever the number of versions that hold it. */
export const spaceBlobs = pgTable(
  "space_blobs",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** SHA-256 of the content's UTF-8 bytes, hex. */
    hash: text("hash").notNull(),
    content: text("content").notNull(),
    /** UTF-8 bytes. */
    size: integer("size").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.hash] })],
);

export const VERSION_KINDS = ["chat", "restore", "undo_restore", "edit", "merge"] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

/**
 * A state of the app's files. `parentId` is the state it was made from (the current version at
 * the time); its rows in `version_files` are the paths that differ from the parent. A version
 * with `snapshotDistance` 0 lists every path (the first version, and every SNAPSHOT_INTERVAL-th).
 */
export const versions = pgTable(
  "versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** 1, 2, 3 ... per app, in order of creation. */
    number: integer("number").notNull(),
    parentId: uuid("parent_id"),
    /** The chat message the version is annotated on; null for a change made outside the chat. */
    messageId: uuid("message_id").references((): AnyPgColumn => chatMessages.id, { onDelete: "set null" }),
    kind: text("kind", { enum: VERSION_KINDS }).notNull(),
    /** The version whose state a restore or undo brought back. */
    restoredFromId: uuid("restored_from_id"),
    userRequest: text("user_request").notNull().default(""),
    description: text("description").notNull().default(""),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    /** Versions since the last full listing in this chain: 0 = this one lists every path. */
    snapshotDistance: integer("snapshot_distance").notNull(),
    /** Files in the version's tree. */
    fileCount: integer("file_count").notNull(),
    createdByAccountId: uuid("created_by_account_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("versions_app_number_idx").on(t.appId, t.number),
    index("versions_message_idx").on(t.messageId),
  ],
);

export type Version = typeof versions.$inferSelect;

export const FILE_CHANGES = ["added", "modified", "deleted"] as const;
export type FileChangeStatus = (typeof FILE_CHANGES)[number];

/**
 * One path of a version: its content's hash, or null when the version deleted it. `change` says
 * how it differs from the parent's; null for the paths a full listing repeats unchanged.
 */
export const versionFiles = pgTable(
  "version_files",
  {
    versionId: uuid("version_id")
      .notNull()
      .references(() => versions.id, { onDelete: "cascade" }),
    appId: uuid("app_id").notNull(),
    path: text("path").notNull(),
    blobHash: text("blob_hash"),
    change: text("change", { enum: FILE_CHANGES }),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.path] }),
    // A file's own history (the version dialog per file): the versions that changed it.
    index("version_files_app_path_idx").on(t.appId, t.path).where(sql`${t.change} is not null`),
  ],
);

/** The app's current files: the tree of its current version, kept whole for fast reads. */
export const appFiles = pgTable(
  "app_files",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    blobHash: text("blob_hash").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.path] })],
);

/**
 * The app's current version (null before the first) and a revision that moves on every change
 * of the files, so a writer can say which state it worked from. Written only under the app's lock.
 */
export const spaceHeads = pgTable("space_heads", {
  appId: uuid("app_id")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  versionId: uuid("version_id"),
  revision: integer("revision").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const CHAT_ROLES = ["user", "assistant"] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];
/** message: a user's request or the assistant's answer; the others are system actions. */
export const CHAT_MESSAGE_KINDS = ["message", "restore", "undo_restore", "autofix", "merge"] as const;
export type ChatMessageKind = (typeof CHAT_MESSAGE_KINDS)[number];
/**
 * streaming: the answer is being written; incomplete: it stopped early (stopped by the builder,
 * or its server went away); truncated: the model's output was cut for length ('Let's keep
 * going'); failed: an error, which offers retry.
 */
export const CHAT_MESSAGE_STATUSES = ["streaming", "incomplete", "complete", "truncated", "failed"] as const;
export type ChatMessageStatus = (typeof CHAT_MESSAGE_STATUSES)[number];

/**
 * The conversation of a space app. `seq` orders it (history pages by it). A revert or a retry
 * removes messages by setting `removedAt`: they leave the conversation, their versions and usage
 * stay.
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    role: text("role", { enum: CHAT_ROLES }).notNull(),
    kind: text("kind", { enum: CHAT_MESSAGE_KINDS }).notNull().default("message"),
    status: text("status", { enum: CHAT_MESSAGE_STATUSES }).notNull().default("complete"),
    content: text("content").notNull().default(""),
    /** The AI SDK's message parts (text, reasoning, source, tool-invocation, file). */
    parts: jsonb("parts").$type<unknown[]>().notNull().default([]),
    attachments: jsonb("attachments").$type<unknown[]>().notNull().default([]),
    /** The chat actions of the answer (add_file, edit_file, ...). */
    actions: jsonb("actions").$type<unknown[]>().notNull().default([]),
    /** The usage record: tokens, costs, rates, modelInfo.model, finishReason, timestamp. */
    usage: jsonb("usage").$type<Record<string, unknown>>(),
    /** What went wrong, for a failed answer. */
    error: text("error"),
    /** The version this message created (annotations[0].versionId). */
    versionId: uuid("version_id"),
    /** The current version when the message was written: the state a retry goes back to. */
    baseVersionId: uuid("base_version_id"),
    /** restore / undo_restore / autofix: type, restoredVersionDate, revertedFromMessageId. */
    systemAction: jsonb("system_action").$type<Record<string, unknown>>(),
    discussMode: boolean("discuss_mode").notNull().default(false),
    contextFiles: jsonb("context_files").$type<unknown[]>(),
    contextMetadata: jsonb("context_metadata").$type<Record<string, unknown>>(),
    authorAccountId: uuid("author_account_id"),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chat_messages_app_seq_idx").on(t.appId, t.seq),
    // One answer at a time per app: a second tab's request is refused by the database itself.
    uniqueIndex("chat_messages_one_streaming_idx")
      .on(t.appId)
      .where(sql`${t.status} = 'streaming' and ${t.removedAt} is null`),
  ],
);

export type ChatMessage = typeof chatMessages.$inferSelect;

/** "Rating: score 1-5, feedback (list of chosen reason texts), comment"; once per message. */
export const ratings = pgTable(
  "ratings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    messageId: uuid("message_id")
      .notNull()
      .unique()
      .references(() => chatMessages.id, { onDelete: "cascade" }),
    accountId: uuid("account_id").notNull(),
    score: integer("score").notNull(),
    feedback: jsonb("feedback").$type<string[]>().notNull().default([]),
    comment: text("comment"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ratings_app_idx").on(t.appId),
    check("ratings_score_range", sql`${t.score} between 1 and 5`),
  ],
);

export type Rating = typeof ratings.$inferSelect;

/** The chat assistant of an app (status active or draft, chatAppId). */
export const chatAssistants = pgTable("chat_assistants", {
  appId: uuid("app_id")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  /** chatAppId: the assistant's own id, kept across activations. */
  chatAppId: uuid("chat_app_id").notNull().unique().defaultRandom(),
  status: text("status", { enum: ["active", "draft"] })
    .notNull()
    .default("draft"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ChatAssistant = typeof chatAssistants.$inferSelect;

/**
 * A record of a space app's entity (every one has id, creatorId, createdAt):
 * its fields as JSON, the entity by name (its schema lives in the app's files, entities/{Name}.json).
 * Records are data, not files: restoring or reverting a version leaves them as they are.
 */
export const entityRecords = pgTable(
  "entity_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    entity: text("entity").notNull(),
    /** The user who created it: the builder (through the chat) or an end user (the app's code). */
    creatorId: uuid("creator_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // "list (sorted createdAt descending)", paged by (createdAt, id), read backwards or forwards; a
  // creator's own records (the "creator" read level) by the same order; the data client's
  // updatedAt sorts; an equality filter by containment, checked row by row along the index.
  // Plain ascending columns on purpose: scanned backwards they give ORDER BY ... DESC, whose
  // default is NULLS FIRST, so `desc(col)` uses them. An index declared DESC (NULLS LAST) matches
  // neither direction's default, and a list of 1,000,000 records sorted them all (bench/app-data.ts).
  (t) => [
    index("entity_records_list_idx").on(t.appId, t.entity, t.createdAt, t.id),
    index("entity_records_creator_idx").on(t.appId, t.entity, t.creatorId, t.createdAt, t.id),
    index("entity_records_updated_idx").on(t.appId, t.entity, t.updatedAt, t.id),
  ],
);

export type EntityRecord = typeof entityRecords.$inferSelect;

/** One failed row of a CSV import: its data row number (1 is the first after the headers) and why. */
export type ImportFailedRow = { row: number; reason: string };

/**
 * A CSV import into an entity, run as a job. The file's text waits here until the job has read it
 * (dropped once the import ends). `batches` counts the batches written: each batch's records and
 * this row's progress are written in one transaction, only if `batches` is still what the job
 * read, so a retried job skips the batches already in and never doubles rows.
 */
export const entityImports = pgTable("entity_imports", {
  id: uuid("id").primaryKey().defaultRandom(),
  appId: uuid("app_id")
    .notNull()
    .references(() => apps.id, { onDelete: "cascade" }),
  entity: text("entity").notNull(),
  /** The builder who started it: the records' creator. */
  creatorId: uuid("creator_id"),
  status: text("status", { enum: ["queued", "importing", "complete", "failed"] })
    .notNull()
    .default("queued"),
  /** The column mapping (lib/csv/schemas.ts CsvMapping[]). */
  mapping: jsonb("mapping").$type<unknown[]>().notNull(),
  csv: text("csv"),
  total: integer("total").notNull().default(0),
  imported: integer("imported").notNull().default(0),
  failed: integer("failed").notNull().default(0),
  batches: integer("batches").notNull().default(0),
  failedRows: jsonb("failed_rows").$type<ImportFailedRow[]>().notNull().default([]),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type EntityImport = typeof entityImports.$inferSelect;
