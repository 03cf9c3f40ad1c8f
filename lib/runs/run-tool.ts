import "server-only";
import { finishRun, type RunEnd } from "@/db/queries/runs";
import type { RunContext, ToolRun } from "@/db/schema";
import { describeError } from "@/lib/ai/describe-error";
import { reserveModelCall } from "@/lib/ai/model-budget";
import { runCost } from "@/lib/ai/prices";
import { defaultModelId, modelEndpoint } from "@/lib/ai/provider";
import { isUuid } from "@/lib/apps/access";
import type { Session } from "@/lib/auth/session";
import { RUN_MODEL_RETRIES } from "@/lib/constants";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { assertMembership, readGateAhead } from "@/lib/payments/membership";
import { storable } from "@/lib/storable-text";
import { loadRunTarget, runnerOf } from "./access";
import { groundingFor } from "./grounding";
import { checkInputs, withoutPhotos } from "./inputs";
import { reserveRunSlot } from "./limits";
import { rememberInputs } from "./memories";
import { type ModelImage, type ModelPart, streamModel } from "./model-stream";
import { findRunPhotos, keepRunPhotos, readRunPhotos } from "./photos";
import { buildPrompt } from "./prompt";
import type { RunBody } from "./schemas";
import { DONE, encodePart, streamHeaders, TEXT_PART_ID } from "./stream";

// POST /api/apps/{appId}/run: an end user runs a tool.
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
  // The membership gate is read beside the app (a plain read; it is checked in its turn below).
  const gateAhead = isUuid(appId) ? readGateAhead(appId, session) : undefined;
  const { target, preview } = await loadRunTarget(appId, body.toolId, session);
  const runner = runnerOf(session, target.app, ip);
  if (runner.kind === "visitor" && target.settings.isSignupEnabled) {
    throw new AppError("UNAUTHENTICATED", "runSignInRequired", "SIGN_IN_REQUIRED");
  }
  if (session?.disabled && runner.kind !== "visitor") throw new AppError("FORBIDDEN", "userDisabled");
  const inputs = checkInputs(target.content, target.fields, body.inputs);
  // Photo fields name photos uploaded for this app, or the run is refused here (their bytes are
  // read once the slot is reserved).
  const photos = await findRunPhotos(target, inputs);
  const configured = modelEndpoint() !== null;
  // The app's data for the prompt is read while the membership and the limits are checked: a
  // plain read, whose result counts only once the run's slot is reserved. Photos' addresses are
  // no words to search it with.
  const searched = withoutPhotos(target.fields, inputs);
  const grounding = configured ? groundingFor(target.app.id, target.settings, target.fields, searched) : null;
  // Awaited below; a check that refuses the run first leaves it unread.
  grounding?.catch(() => {});
  // Paid memberships: an app for members only refuses everybody else; its builder previews freely.
  if (!preview) await assertMembership(target.app, session, gateAhead);
  // Builders are told what to set; end users only that it is not available.
  if (!configured || !grounding) {
    throw new AppError("NOT_CONFIGURED", preview ? "aiNotConfigured" : "runNotAvailable");
  }
  const modelId = target.settings.aiModel ?? defaultModelId();

  // The builder's preview is free of the app's run limits but spends the builder's model budget
  // (429 once spent; the app's end users are held by the app's own limits).
  const budget = preview && session ? await reserveModelCall(session) : null;
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

  let prompt: ReturnType<typeof buildPrompt>;
  try {
    const grounded = await grounding;
    // Written with the run's end, however it ends: no extra write before the model is asked.
    recorder.context(grounded.context);
    prompt = buildPrompt(target.content, target.fields, inputs, grounded.grounding);
  } catch (err) {
    // The slot is taken by now: the run is ended as an error, its credits given back.
    await recorder.fail(
      "error",
      `The app's data could not be read: ${describeError(err, { sentence: true })}`,
      true,
    );
    await budget?.giveBack();
    throw err;
  }
  let images: ModelImage[];
  try {
    // The run holds their addresses now: the prune job spares them from here on.
    if (photos.size > 0) await keepRunPhotos(photos);
    images = await readRunPhotos(target, photos, prompt.photos);
  } catch (err) {
    await recorder.fail(
      "error",
      `The photos could not be read: ${describeError(err, { sentence: true })}`,
      true,
    );
    await budget?.giveBack();
    throw err;
  }

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
  // RUN_TIMEOUT_MS: 120 s unless the environment shortens it (tests).
  const timer = setTimeout(() => stop("timeout"), env().RUN_TIMEOUT_MS);
  const release = () => {
    clearTimeout(timer);
    signal.removeEventListener("abort", onClientGone);
  };

  // Ask the model, then wait for its first word: whatever fails before it is answered as JSON,
  // and costs nothing.
  let reader: ReadableStreamDefaultReader<ModelPart> | undefined;
  let first: string | null = null;
  let early: { finishReason: string } | null = null;
  try {
    const stream = await streamModel({
      modelId,
      instructions: prompt.instructions,
      prompt: prompt.prompt,
      images,
      temperature: target.settings.modelTemperature,
      retries: RUN_MODEL_RETRIES,
      signal: abort.signal,
    });
    reader = stream.getReader();
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done) break;
      if (part.type === "error") throw part.error;
      if (part.type === "text-delta" && part.delta) {
        first = part.delta;
        break;
      }
      if (part.type === "finish") {
        // An empty answer: nothing to wait for.
        recorder.usage(part.usage);
        early = { finishReason: part.finishReason.unified };
        break;
      }
    }
  } catch (err) {
    release();
    reader?.cancel().catch(() => {});
    if (abortReason) return recorder.endBeforeText(abortReason);
    await recorder.fail("error", describeError(err, { sentence: true }), true);
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
      void pump(reader!, recorder, write, () => abortReason, early)
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

type Usage = Extract<ModelPart, { type: "finish" }>["usage"];

/** Streams the rest of the answer to the client, then records how the run ended. */
async function pump(
  reader: ReadableStreamDefaultReader<ModelPart>,
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
      if (done) break;
      if (part.type === "error") {
        failure = part.error;
        break;
      }
      if (part.type === "text-delta" && part.delta) {
        recorder.append(part.delta);
        write(encodePart({ type: "text-delta", id: TEXT_PART_ID, delta: part.delta }));
      } else if (part.type === "finish") {
        recorder.usage(part.usage);
        finishReason = part.finishReason.unified;
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
    const detail = failure
      ? describeError(failure, { sentence: true })
      : "the model's answer ended without finishing";
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
  private grounding: RunContext | null = null;

  constructor(
    readonly run: ToolRun,
    private readonly startedAt: number,
    private readonly onSuccess: () => Promise<void>,
  ) {}

  /** What the model is grounded in, recorded with the run's end. */
  context(c: RunContext) {
    this.grounding = c;
  }

  append(text: string) {
    this.output += text;
  }

  usage(u: Usage | undefined) {
    this.promptTokens = u?.inputTokens.total ?? null;
    this.completionTokens = u?.outputTokens.total ?? null;
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
        // The model (and the provider's error) wrote them: a NUL, which PostgreSQL cannot hold, is dropped.
        ...storable({ ...e, output: this.output }),
        ...tokens,
        ...runCost(this.run.model, tokens),
        context: this.grounding,
        durationMs: Date.now() - this.startedAt,
      });
    } catch (err) {
      // The prune job ends a run left 'running'; the answer itself is not lost to the client.
      logError("run: its end could not be recorded", { runId: this.run.id, err });
    }
  }
}
