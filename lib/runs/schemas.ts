import { z } from "zod";
import { FIELD_NAME_MAX, FIELD_OPTIONS_MAX, RUN_INPUT_VALUE_MAX } from "@/lib/constants";
import { aiMessages } from "@/lib/messages/ai";
import { storableString } from "@/lib/storable-text";
import { fillTemplate } from "@/lib/text";

const inputTooLong = fillTemplate(aiMessages.runInputTooLong, {
  max: RUN_INPUT_VALUE_MAX.toLocaleString("en-US"),
});

// Shapes of the run routes, shared by the routes, the public tool page and the tests.

/** One input value: text (most types), a list of option labels (multiselect), a number (height, weight). */
export const RunInputValue = z.union([
  storableString().max(RUN_INPUT_VALUE_MAX, inputTooLong),
  z.array(storableString().max(RUN_INPUT_VALUE_MAX, inputTooLong)).max(FIELD_OPTIONS_MAX),
  z.number().finite(),
  z.null(),
]);
export type RunInputValue = z.infer<typeof RunInputValue>;

/** POST /api/apps/{appId}/run */
export const RunBody = z
  .object({
    /** A tool of a generated app; omitted (or null) for a single-tool app. */
    toolId: z.uuid().nullish(),
    /** Field name -> value; "input" is the main input. Unknown names are ignored. */
    inputs: z.record(storableString().max(FIELD_NAME_MAX), RunInputValue).default({}),
  })
  .meta({ examples: [{ toolId: null, inputs: { input: "A short poem about the sea" } }] });
export type RunBody = z.infer<typeof RunBody>;

/** The 429 of a reached limit carries this beside `error`. */
export const RunLimitInfo = z.object({
  period: z.enum(["day", "week"]),
  limit: z.number().int(),
  used: z.number().int(),
  creditsPerRun: z.number().int(),
  resetsAt: storableString(),
});
export type RunLimitInfo = z.infer<typeof RunLimitInfo>;

/** The `finish` part's metadata. */
export const RunFinishMetadata = z.object({
  runId: storableString(),
  status: z.literal("success"),
  usage: z.object({ promptTokens: z.number().nullable(), completionTokens: z.number().nullable() }),
});

/**
 * The parts of the answer stream (the AI SDK's UI message stream protocol, v1): one JSON object
 * per SSE `data:` line, then `data: [DONE]`.
 */
export const RunStreamPart = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("start"),
    messageId: storableString(),
    messageMetadata: z.object({ runId: storableString() }),
  }),
  z.object({ type: z.literal("text-start"), id: storableString() }),
  z.object({ type: z.literal("text-delta"), id: storableString(), delta: storableString() }),
  z.object({ type: z.literal("text-end"), id: storableString() }),
  z.object({
    type: z.literal("finish"),
    finishReason: storableString(),
    messageMetadata: RunFinishMetadata,
  }),
  z.object({ type: z.literal("error"), errorText: storableString() }),
]);
export type RunStreamPart = z.infer<typeof RunStreamPart>;

/** The header that names the run of an answer stream. */
export const RUN_ID_HEADER = "x-run-id";

/** GET and DELETE /api/live_api/user/memories/current?appId= */
export const MemoriesQuery = z.object({ appId: z.uuid() });
export const MemoriesAnswer = z.object({ memories: z.record(storableString(), RunInputValue) });
export type MemoriesAnswer = z.infer<typeof MemoriesAnswer>;
/** DELETE /api/live_api/user/memories/current?appId=: how many memories were forgotten. */
export const MemoriesClearedAnswer = z.object({
  ok: z.literal(true),
  deleted: z.number().int().nonnegative(),
});
export type MemoriesClearedAnswer = z.infer<typeof MemoriesClearedAnswer>;

/** GET /api/apps/{appId}/runs/{runId}/context */
export const RunContextParams = z.object({ appId: z.uuid(), runId: z.uuid() });

/** An excerpt of a data source the model was given; `score` (its search score) only for admins. */
export const RunExcerpt = z.object({
  itemId: z.string(),
  itemName: z.string(),
  position: z.number().int(),
  text: z.string(),
  score: z.number().optional(),
});
export type RunExcerpt = z.infer<typeof RunExcerpt>;

/** A CSV row the fields' filter conditions selected (smart items filtering), as the model got it. */
export const RunContextRow = z.object({
  itemId: z.string(),
  itemName: z.string(),
  position: z.number().int(),
  /** The row's cells by column name. */
  data: z.record(z.string(), z.string()),
});
export type RunContextRow = z.infer<typeof RunContextRow>;

/**
 * Why a run shows no excerpts: it is still running (its data is written with its end); it ended
 * before its data was read (or ran before runs kept it); its
 * inputs had no words to search with; the app has no synced data source; nothing matched.
 */
export const RunContextEmpty = z.enum([
  "running",
  "notRecorded",
  "noWords",
  "noSources",
  "nothingMatched",
  "noRowsMatched",
]);
export type RunContextEmpty = z.infer<typeof RunContextEmpty>;

/** GET /api/apps/{appId}/runs/{runId}/context */
export const RunContextAnswer = z.object({
  runId: z.uuid(),
  /** How the run was grounded: excerpts (default query method) or rows (smart items filtering). */
  kind: z.enum(["chunks", "rows"]).nullable(),
  excerpts: z.array(RunExcerpt),
  rows: z.array(RunContextRow),
  /** Null when there are excerpts or rows to show. */
  empty: RunContextEmpty.nullable(),
  /** The excerpts carry their scores (the reader is an admin). */
  scores: z.boolean(),
});
export type RunContextAnswer = z.infer<typeof RunContextAnswer>;
