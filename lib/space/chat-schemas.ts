import { z } from "zod";
import { CHAT_MESSAGE_MAX } from "@/lib/constants";
import { type MessageKey, messages } from "@/lib/messages";
import { storableString } from "@/lib/storable-text";
import { fillTemplate } from "@/lib/text";

// The chat stream of a space app (POST /api/apps/{appId}/chat): its body, its stream parts and the
// chat actions, shared by the route, the service, the chat view and the tests. No server imports:
// the UI imports this file.

/** "Types: add_file, edit_file, partial_edit, add_entity, edit_entity, delete_file, import_entities, request_secrets, insert_entity_records" */
export const ACTION_TYPES = [
  "add_file",
  "edit_file",
  "partial_edit",
  "add_entity",
  "edit_entity",
  "delete_file",
  "import_entities",
  "request_secrets",
  "insert_entity_records",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The actions that change the app's files; the others are stored with the message only. */
export const FILE_ACTION_TYPES: readonly ActionType[] = [
  "add_file",
  "edit_file",
  "partial_edit",
  "delete_file",
  "add_entity",
  "edit_entity",
];

/** "Chat actions: streaming or incomplete, complete, or truncated". */
export const ChatActionStatus = z.enum(["streaming", "complete", "truncated", "incomplete"]);
export type ChatActionStatus = z.infer<typeof ChatActionStatus>;

/** "Chat action: title, type, file, content, isComplete, isTruncated, permissions", and ours. */
export const ChatAction = z.object({
  /** "{messageId}:{index}": stable while it streams, so the client updates it in place. */
  id: z.string(),
  type: z.enum(ACTION_TYPES),
  title: z.string(),
  /** The file it writes (entities: entities/{name}.json); null for request_secrets. */
  file: z.string().nullable(),
  /** The entity it is about. */
  name: z.string().nullable(),
  /** The whole file (so far); partial_edit: its <find>/<replace> body; others: the body as written. */
  content: z.string(),
  /** partial_edit, once complete. */
  edits: z.array(z.object({ find: z.string(), replace: z.string() })).optional(),
  /** import_entities / request_secrets / insert_entity_records: the body parsed, when it is JSON. */
  data: z
    .unknown()
    .optional()
    .describe(
      "Free-form JSON: the action's body as the model wrote it (entities to import, secrets to ask for, records)",
    ),
  /** add_entity / edit_entity: the schema's x-accessControl.permissions. */
  permissions: z.object({ read: z.string(), write: z.string() }).nullable().optional(),
  status: ChatActionStatus,
  isComplete: z.boolean(),
  isTruncated: z.boolean(),
  /** Its change is in the answer's version. */
  applied: z.boolean(),
  /** import_entities: the import it started (GET .../entities/{name}/imports/{importId} follows it). */
  importId: z.string().optional(),
  /** import_entities: why no import was started (its body, the entity, the file). */
  importProblem: z.string().optional(),
  /** A 'Let's keep going' answer finishing the action an earlier answer was cut in. */
  resumedFrom: z.object({ messageId: z.string(), actionId: z.string() }).optional(),
});
export type ChatAction = z.infer<typeof ChatAction>;

/**
 * POST /api/apps/{appId}/chat: a new message (`text`), 'Let's keep going' (`continue`), or a retry
 * of the last user message (`retryMessageId`): exactly one of them.
 */
export const ChatSendBody = z
  .object({
    text: storableString()
      .trim()
      .min(1)
      .max(
        CHAT_MESSAGE_MAX,
        fillTemplate(messages.chatMessageTooLong, { max: CHAT_MESSAGE_MAX.toLocaleString("en-US") }),
      )
      .optional(),
    /** Discuss mode: the assistant answers without changing files. */
    discussMode: z.boolean().optional(),
    continue: z.boolean().optional(),
    retryMessageId: z.uuid().optional(),
  })
  .refine(
    (b) =>
      [b.text !== undefined, b.continue === true, b.retryMessageId !== undefined].filter(Boolean).length ===
      1,
    {
      message: "Send exactly one of text, continue or retryMessageId",
    },
  )
  .meta({ examples: [{ text: "Add a page that lists my notes" }] });
export type ChatSendBody = z.infer<typeof ChatSendBody>;

export const ChatAnswerStatus = z.enum(["streaming", "complete", "truncated", "incomplete", "failed"]);

/** The usage record of an answer: tokens, costs, rates, model, finish reason, time. */
export const ChatUsage = z.object({
  promptTokens: z.number().nullable(),
  promptCost: z.number(),
  completionTokens: z.number().nullable(),
  completionCost: z.number(),
  totalTokens: z.number().nullable(),
  totalCost: z.number(),
  cacheReadTokens: z.number().nullable(),
  cacheWriteTokens: z.number().nullable(),
  cacheReadCost: z.number(),
  cacheWriteCost: z.number(),
  /** USD per 1M tokens; null when the model has no known price. */
  rates: z.object({ promptPerMillion: z.number(), completionPerMillion: z.number() }).nullable(),
  modelInfo: z.object({ model: z.string() }),
  finishReason: z.string().nullable(),
  timestamp: z.string(),
  /** False: the model is not in the price table, its costs are shown as unknown (0 here). */
  costKnown: z.boolean(),
});
export type ChatUsage = z.infer<typeof ChatUsage>;

/** The answer's metadata on `start`, `message-metadata` and `finish` (useChat merges it into message.metadata). */
export const ChatMessageMetadata = z.object({
  messageId: z.string(),
  userMessageId: z.string().nullable(),
  removedMessageIds: z.array(z.string()),
  status: ChatAnswerStatus,
  versionId: z.string().nullable(),
  discussMode: z.boolean(),
  usage: ChatUsage.nullable().optional(),
  error: z.string().nullable().optional(),
});
export type ChatMessageMetadata = z.infer<typeof ChatMessageMetadata>;

/** A version as the stream announces it (VersionSummary of lib/space/views.ts). */
const VersionData = z.object({ id: z.string(), number: z.number() }).passthrough();

/** The parts of the chat stream (the AI SDK's UI message stream protocol, v1), then `data: [DONE]`. */
export const ChatStreamPart = z.discriminatedUnion("type", [
  z.object({ type: z.literal("start"), messageId: z.string(), messageMetadata: ChatMessageMetadata }),
  z.object({ type: z.literal("text-start"), id: z.string() }),
  z.object({ type: z.literal("text-delta"), id: z.string(), delta: z.string() }),
  z.object({ type: z.literal("text-end"), id: z.string() }),
  z.object({ type: z.literal("data-action"), id: z.string(), data: ChatAction }),
  z.object({ type: z.literal("data-version"), id: z.string(), data: VersionData }),
  z.object({ type: z.literal("message-metadata"), messageMetadata: ChatMessageMetadata }),
  z.object({ type: z.literal("finish"), finishReason: z.string(), messageMetadata: ChatMessageMetadata }),
  z.object({ type: z.literal("error"), errorText: z.string() }),
]);
export type ChatStreamPart = z.infer<typeof ChatStreamPart>;

/** The stored and streamed parts of an answer: prose and actions in the order written. */
export type ChatPart = { type: "text"; text: string } | { type: "data-action"; id: string; data: ChatAction };

/** The header naming the answer being streamed. */
export const CHAT_MESSAGE_ID_HEADER = "x-chat-message-id";

/** The catalogue key of each action type's title (its file or entity name filled in). */
export const ACTION_TITLES = {
  add_file: "chatActionAddFile",
  edit_file: "chatActionEditFile",
  partial_edit: "chatActionPartialEdit",
  delete_file: "chatActionDeleteFile",
  add_entity: "chatActionAddEntity",
  edit_entity: "chatActionEditEntity",
  import_entities: "chatActionImportEntities",
  request_secrets: "chatActionRequestSecrets",
  insert_entity_records: "chatActionInsertRecords",
} as const satisfies Record<ChatAction["type"], MessageKey>;
