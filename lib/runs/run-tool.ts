import "server-only";
import { APICallError, streamText } from "ai";
import { finishRun, type RunEnd } from "@/db/queries/runs";
import type { ToolRun } from "@/db/schema";
import { runCost } from "@/lib/ai/prices";
import { defaultModelId, languageModel, modelEndpoint } from "@/lib/ai/provider";
import { AppError } from "@/lib/api/errors";
import type { Session } from "@/lib/auth/session";
import { RUN_MODEL_RETRIES, RUN_TIMEOUT_MS } from "@/lib/constants";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { assertMembership } from "@/lib/payments/membership";
import { loadRunTarget, runnerOf } from "./access";
import { groundingFor } from "./grounding";
import { checkInputs } from "./inputs";
import { reserveRunSlot } from "./limits";
import { rememberInputs } from "./memories";
import { buildPrompt } from "./prompt";
import type { RunBody } from "./schemas";
import { DONE, encodePart, streamHeaders, TEXT_PART_ID } from "./stream";

// POST /api/apps/{appId}/run: an end user runs a tool (contract: /work/notes/runs-contract.md).
// Everything that can refuse a run does so before the answer starts, as a JSON error: the app
// and tool, sign-in, the inputs, membership, the provider, the limits (a slot is reserved
// atomically), and the model's failure before its first word. Then the answer streams as the
// model writes it, and the run is recorded when it ends, however it ends:
// - success: the model finished;
// - error: the provider failed or the connection to it dropped (the text so far is kept);
// - cancelled: the client went away (a cancel, a closed page, a dropped connection): the model
//   request is aborted at once;
// - aborted: the run passed RUN_TIMEOUT_MS and the server cut it.
// A run that produced no text at all gives its credits back.

type Ctx = { session: Session | null; appId: string; body: RunBody; ip: string; signal: AbortSignal };

export async function runTool({ session, appId, body, ip, signal }: Ctx): Promise<Response> {
  const startedAt = Date.now();
  const { target, preview } = await loadRunTarget(appId, body.toolId, session);
  const runner = runnerOf(session, target.app, ip);
  if (runner.kind === "visitor" && target.settings.isSignupEnabled) {
    throw new AppError("UNAUTHENTICATED", "runSignInRequired", "SIGN_IN_REQUIRED");
  }
  if (session?.disabled && runner.kind !== "visitor") throw new AppError("FORBIDDEN", "userDisabled");
  const inputs = checkInputs(target.content, target.fields, body.inputs);
  // Paid memberships (spec 2): an app for members only refuses everybody else; its builder previews freely.
  if (!preview) await assertMembership(target.app, session);
  // Builders are told what to set; end users only that it is not available.
  if (!modelEndpoint()) throw new AppError("NOT_CONFIGURED", preview ? "aiNotConfigured" : "runNotAvailable");

  const grounding = await groundingFor(target.app.id, target.settings, target.fields, inputs);
  const prompt = buildPrompt(target.content, target.fields, inputs, grounding);
  const modelId = target.settings.aiModel ?? defaultModelId();

  const run = await reserveRunSlot(
    {
      appId: target.app.id,
      toolId: target.tool?.id ?? null,
      kind: runner.kind,
      userId: runner.userId,
      subject: runner.subject,
      inputs,
      model: modelId,
    },
    target.settings,
    preview,
  );

  const recorder = new RunRecorder(run, startedAt, async () => {
    if (runner.kind === "end_user" && runner.userId) {
      await rememberInputs(target.app.id, runner.userId, target.fields, inputs);
    }
  });

  // One abort for every reason the model request must stop: the client left, or time ran out.
  const abort = new AbortController();
  let abortReason: "client" | "timeout" | null = null;
  const stop = (reason: "client" | "timeout") => {
    if (abort.signal.aborted) return;
    abortReason = reason;
    abort.abort(new Error(reason === "client" ? "the client went away" : "the run took too long"));
  };
  const onClientGone = () => stop("client");
  if (signal.aborted) onClientGone();
  else signal.addEventListener("abort", onClientGone, { once: true });
  const timer = setTimeout(() => stop("timeout"), RUN_TIMEOUT_MS);
  const release = () => {
    clearTimeout(timer);
    signal.removeEventListener("abort", onClientGone);
  };

  let reader: ReadableStreamDefaultReader<StreamPart>;
  try {
    const result = streamText({
      model: languageModel(modelId),
      instructions: prompt.instructions,
      prompt: prompt.prompt,
      temperature: target.settings.modelTemperature,
      maxRetries: RUN_MODEL_RETRIES,
      abortSignal: abort.signal,
      // Failures are recorded and logged here, once; the SDK's default would print each to the console.
      onError: () => {},
    });
    reader = result.stream.getReader() as ReadableStreamDefaultReader<StreamPart>;
  } catch (err) {
    release();
    await recorder.fail("error", describeError(err), true);
    logError("run: the model call could not start", { runId: run.id, err });
    throw new AppError("BAD_GATEWAY", "runFailed", "MODEL_FAILED");
  }

  // Wait for the first word: whatever fails before it is answered as JSON, and costs nothing.
  let first: string | null = null;
  let early: { finishReason: string } | null = null;
  try {
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done || part.type === "abort") break;
      if (part.type === "error") throw part.error;
      if (part.type === "text-delta" && part.text) {
        first = part.text;
        break;
      }
      if (part.type === "finish") {
        // An empty answer: nothing to wait for.
        recorder.usage(part.totalUsage);
        early = { finishReason: part.finishReason ?? "stop" };
        break;
      }
    }
  } catch (err) {
    release();
    if (abortReason) return recorder.endBeforeText(abortReason);
    await recorder.fail("error", describeError(err), true);
    logError("run: the model failed before answering", { runId: run.id, modelId, err });
    throw new AppError("BAD_GATEWAY", "runFailed", "MODEL_FAILED");
  }
  if (abortReason && first === null) {
    release();
    return recorder.endBeforeText(abortReason);
  }

  const body$ = new ReadableStream<Uint8Array>({
    start: (controller) => {
      const write = (chunk: Uint8Array) => {
        try {
          controller.enqueue(chunk);
        } catch {
          // The client is gone and the stream closed: the run is being cancelled.
        }
      };
      write(encodePart({ type: "start", messageId: run.id, messageMetadata: { runId: run.id } }));
      write(encodePart({ type: "text-start", id: TEXT_PART_ID }));
      if (first !== null) {
        recorder.append(first);
        write(encodePart({ type: "text-delta", id: TEXT_PART_ID, delta: first }));
      }
      void pump(reader, recorder, write, () => abortReason, early)
        .finally(release)
        .finally(() => {
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        });
    },
    cancel: () => stop("client"),
  });
  return new Response(body$, { status: 200, headers: streamHeaders(run.id) });
}

type StreamPart = {
  type: string;
  text?: string;
  error?: unknown;
  totalUsage?: Usage;
  finishReason?: string;
};
type Usage = { inputTokens?: number | undefined; outputTokens?: number | undefined };

/** Streams the rest of the answer to the client, then records how the run ended. */
async function pump(
  reader: ReadableStreamDefaultReader<StreamPart>,
  recorder: RunRecorder,
  write: (chunk: Uint8Array) => void,
  abortReason: () => "client" | "timeout" | null,
  early: { finishReason: string } | null,
): Promise<void> {
  let failure: unknown = null;
  let finishReason = early?.finishReason ?? "stop";
  let finished = early !== null;
  try {
    while (!early) {
      const { value: part, done } = await reader.read();
      if (done || part.type === "abort") break;
      if (part.type === "error") {
        failure = part.error;
        break;
      }
      if (part.type === "text-delta" && part.text) {
        recorder.append(part.text);
        write(encodePart({ type: "text-delta", id: TEXT_PART_ID, delta: part.text }));
      } else if (part.type === "finish") {
        recorder.usage(part.totalUsage);
        finishReason = part.finishReason ?? "stop";
        finished = true;
      }
    }
  } catch (err) {
    failure = err;
  }
  reader.cancel().catch(() => {});

  const reason = abortReason();
  if (finished && !failure && !reason) {
    await recorder.succeed();
    write(encodePart({ type: "text-end", id: TEXT_PART_ID }));
    write(
      encodePart({
        type: "finish",
        finishReason,
        messageMetadata: { runId: recorder.run.id, status: "success", usage: recorder.tokens() },
      }),
    );
    write(DONE);
    return;
  }
  if (reason === "client") {
    await recorder.fail("cancelled", messages.runCancelled, false);
    return;
  }
  if (reason === "timeout") {
    await recorder.fail("aborted", messages.runTimedOut, false);
    write(encodePart({ type: "error", errorText: messages.runTimedOut }));
  } else {
    const detail = failure ? describeError(failure) : "the model's answer ended without finishing";
    await recorder.fail("error", `The connection to the model was lost: ${detail}`, false);
    logError("run: the model's answer broke off", { runId: recorder.run.id, err: failure });
    write(encodePart({ type: "error", errorText: messages.runInterrupted }));
  }
  write(DONE);
}

/** Keeps what a run produced and writes its end, once. */
class RunRecorder {
  private output = "";
  private promptTokens: number | null = null;
  private completionTokens: number | null = null;
  private ended = false;

  constructor(
    readonly run: ToolRun,
    private readonly startedAt: number,
    private readonly onSuccess: () => Promise<void>,
  ) {}

  append(text: string) {
    this.output += text;
  }

  usage(u: Usage | undefined) {
    this.promptTokens = u?.inputTokens ?? null;
    this.completionTokens = u?.outputTokens ?? null;
  }

  tokens() {
    return { promptTokens: this.promptTokens, completionTokens: this.completionTokens };
  }

  async succeed() {
    await this.end({ status: "success", error: null, refund: false });
    try {
      await this.onSuccess();
    } catch (err) {
      // The answer was given; forgetting a prefill is not worth failing it for.
      logError("run: the memories could not be saved", { runId: this.run.id, err });
    }
  }

  /** Ends a failed run; its credits come back when it produced nothing (or `refund` says so). */
  async fail(status: "error" | "cancelled" | "aborted", error: string, refund: boolean) {
    await this.end({ status, error, refund: refund || this.output === "" });
  }

  /** The client left (or time ran out) before the first word: nothing to stream. */
  async endBeforeText(reason: "client" | "timeout"): Promise<Response> {
    if (reason === "client") {
      await this.fail("cancelled", messages.runCancelled, true);
      // Nobody reads this answer: the client has gone.
      return Response.json({ error: { code: "CANCELLED", message: messages.runCancelled } }, { status: 499 });
    }
    await this.fail("aborted", messages.runTimedOut, true);
    throw new AppError("BAD_GATEWAY", "runTimedOut", "MODEL_TIMEOUT");
  }

  private async end(e: Pick<RunEnd, "status" | "error" | "refund">) {
    if (this.ended) return;
    this.ended = true;
    const tokens = this.tokens();
    try {
      await finishRun(this.run.id, {
        ...e,
        output: this.output,
        ...tokens,
        ...runCost(this.run.model, tokens),
        durationMs: Date.now() - this.startedAt,
      });
    } catch (err) {
      // The prune job ends a run left 'running'; the answer itself is not lost to the client.
      logError("run: its end could not be recorded", { runId: this.run.id, err });
    }
  }
}

/** A failure of the model call in words a builder can act on (the provider's status and message). */
function describeError(err: unknown): string {
  const e = err as { lastError?: unknown; errors?: unknown[] };
  const inner = e?.lastError ?? (Array.isArray(e?.errors) ? e.errors.at(-1) : undefined);
  if (inner && inner !== err) return describeError(inner);
  if (APICallError.isInstance(err)) {
    return err.statusCode
      ? `The model provider answered ${err.statusCode}: ${err.message}`
      : `The model provider could not be reached: ${err.message}`;
  }
  const cause = (err as { cause?: { message?: string; code?: string } })?.cause;
  const message = err instanceof Error ? err.message : String(err);
  return cause?.message ? `${message} (${cause.code ?? cause.message})` : message;
}
