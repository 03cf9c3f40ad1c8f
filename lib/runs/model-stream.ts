import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { APICallError } from "ai";
import { languageModel } from "@/lib/ai/provider";

// A run asks the model once and streams what it writes. The provider's own stream
// (LanguageModel.doStream of the AI SDK) is read directly rather than through streamText: a run
// is one call with no tools and no steps, and streamText's machinery for those (steps, tool
// execution, replay, its layers of transform streams) cost ~2-3 ms before the first word
// reached the user (bench/run-first-byte.ts). What streamText did for us is kept, the same way:
// the system and user messages it would build, and its retries of a failed call (an error the
// provider marks retryable: a refused connection, 408/409/429/5xx), after the delay the provider
// asks for (retry-after-ms / retry-after, up to 60 s) or else 2 s, doubling.

type Model = ReturnType<typeof languageModel>;
type CallOptions = Parameters<Model["doStream"]>[0];
/** A part of the provider's stream: text-delta (`delta`), finish (`usage`, `finishReason`), error, ... */
export type ModelPart =
  Awaited<ReturnType<Model["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

/** A photo for the model: the line that names it, then its bytes as an image part. */
export type ModelImage = { caption: string; bytes: Uint8Array; mediaType: string };

export type ModelCall = {
  modelId: string;
  instructions: string;
  prompt: string;
  /** Photos after the prompt in the user message, each as an image (sent as data, never as a URL). */
  images?: readonly ModelImage[];
  temperature: number;
  /** Retries of a retryable failure before the provider answers (streamText's maxRetries). */
  retries: number;
  signal: AbortSignal;
};

/** The first retry waits this long unless the provider says otherwise; each next one twice as long. */
const RETRY_DELAY_MS = 2000;
const RETRY_AFTER_MAX_MS = 60_000;

/**
 * The model's answer as the provider streams it, once it has answered (its headers came).
 * @throws the provider's error (APICallError: its status and message) when every attempt failed,
 *   or the abort's reason when `signal` ends it first
 */
export async function streamModel(call: ModelCall): Promise<ReadableStream<ModelPart>> {
  // Over node:http with keep-alive sockets (lib/ai/http-fetch.ts): the first word sooner.
  const model = languageModel(call.modelId, "http");
  // As streamText builds them from `instructions` and `prompt`.
  const options: CallOptions = {
    prompt: [
      { role: "system", content: call.instructions },
      { role: "user", content: userContent(call) },
    ],
    temperature: call.temperature,
    abortSignal: call.signal,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const { stream } = await model.doStream(options);
      return stream;
    } catch (err) {
      const retryable = APICallError.isInstance(err) && err.isRetryable;
      if (!retryable || attempt >= call.retries || call.signal.aborted) throw err;
      // Rejects with the abort when the run is stopped meanwhile.
      await sleep(retryDelayMs(err, RETRY_DELAY_MS * 2 ** attempt), undefined, { signal: call.signal });
    }
  }
}

type UserPart = Extract<CallOptions["prompt"][number], { role: "user" }>["content"][number];

/**
 * The user message: the prompt, then each photo after its caption. streamText would turn an
 * `{ type: "image", image: bytes, mediaType }` part into this file part; the provider sends it
 * as an image_url holding a data: URL.
 */
function userContent(call: Pick<ModelCall, "prompt" | "images">): UserPart[] {
  const parts: UserPart[] = [{ type: "text", text: call.prompt }];
  for (const image of call.images ?? []) {
    // Parts are read one after the other with nothing between them: the caption starts a paragraph.
    parts.push({ type: "text", text: `\n\n${image.caption}` });
    parts.push({ type: "file", data: { type: "data", data: image.bytes }, mediaType: image.mediaType });
  }
  return parts;
}

/** The wait before a retry: what the provider asked for, when it is reasonable; else `backoff`. */
export function retryDelayMs(err: APICallError, backoff: number): number {
  const headers = err.responseHeaders;
  if (!headers) return backoff;
  let ms: number | undefined;
  const afterMs = headers["retry-after-ms"];
  if (afterMs) {
    const n = Number.parseFloat(afterMs);
    if (!Number.isNaN(n)) ms = n;
  }
  const after = headers["retry-after"];
  if (after && ms === undefined) {
    const seconds = Number.parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  if (ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < RETRY_AFTER_MAX_MS || ms < backoff))
    return ms;
  return backoff;
}
