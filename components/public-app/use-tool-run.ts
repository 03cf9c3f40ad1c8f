"use client";

import * as React from "react";
import { runsMessages } from "@/lib/messages/runs";
import type { RunInputValue } from "@/lib/runs/schemas";
import type { RunErrorInfo } from "./run-errors";

// One run of a tool from the public page, as a state machine: Idle -> Loading when Run is
// pressed; Loading -> Success on the stream's `finish`, or Error on a refusal (a JSON answer), an
// `error` part, a stream that breaks off, or the user's cancel; Success and Error -> Idle on reset.
// The text that arrived before an error or a cancel stays on screen.

export type { RunErrorInfo };

export type RunState =
  | { status: "idle" }
  | { status: "loading"; text: string }
  | { status: "success"; text: string; runId: string | null; finishReason: string }
  | { status: "error"; text: string; error: RunErrorInfo };

const isAbort = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

/**
 * What reading an answer takes: the stream reader and the refusals, checked with zod's schemas of
 * the parts. Most visits never run the tool, so they load when a run starts (beside its request),
 * not with the page.
 */
const loadReader = () =>
  Promise.all([import("./run-stream"), import("./run-errors"), import("@/lib/runs/schemas")]).then(
    ([stream, errors, schemas]) => ({
      readRunStream: stream.readRunStream,
      refusalOf: errors.refusalOf,
      runIdHeader: schemas.RUN_ID_HEADER,
    }),
  );

export function useToolRun(appId: string, toolId: string | null) {
  const [state, setState] = React.useState<RunState>({ status: "idle" });
  const controller = React.useRef<AbortController | null>(null);

  // Leaving the page stops the run (the server records it cancelled and stops the model).
  React.useEffect(() => () => controller.current?.abort(), []);

  const start = React.useCallback(
    async (inputs: Record<string, RunInputValue>) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      // Only the run still in hand may change the state: a reset or a new run leaves this one behind.
      const set = (next: RunState | ((prev: RunState) => RunState)) => {
        if (controller.current === abort) setState(next);
      };
      let text = "";
      set({ status: "loading", text });
      const reader = loadReader();
      // Awaited once the answer arrives; a failed load then lands in the catch below like a failed
      // request (this only keeps it from being reported as unhandled when the request fails first).
      reader.catch(() => {});
      try {
        const res = await fetch(`/api/apps/${encodeURIComponent(appId)}/run`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ toolId: toolId ?? undefined, inputs }),
          credentials: "same-origin",
          signal: abort.signal,
        });
        const { readRunStream, refusalOf, runIdHeader } = await reader;
        const type = res.headers.get("content-type") ?? "";
        if (!res.ok || !type.startsWith("text/event-stream") || !res.body) {
          const body = await res.json().catch(() => null);
          set({ status: "error", text, error: refusalOf(res.status, body) });
          return;
        }
        const runId = res.headers.get(runIdHeader);
        let ended = false;
        const end = await readRunStream(res.body, (part) => {
          if (ended) return;
          if (part.type === "text-delta") {
            text += part.delta;
            set({ status: "loading", text });
          } else if (part.type === "finish") {
            ended = true;
            set({
              status: "success",
              text,
              runId: part.messageMetadata.runId ?? runId,
              finishReason: part.finishReason,
            });
          } else if (part.type === "error") {
            ended = true;
            set({ status: "error", text, error: { message: part.errorText, code: "STREAM_ERROR" } });
          }
        });
        // The body ended with neither a finish nor an error part: the connection broke off.
        if (!ended) {
          set({
            status: "error",
            text,
            error: {
              message: runsMessages.runInterrupted,
              code: end === "done" ? "STREAM_ERROR" : "INTERRUPTED",
            },
          });
        }
      } catch (err) {
        if (isAbort(err)) {
          set({ status: "error", text, error: { message: runsMessages.runCancelled, code: "CANCELLED" } });
        } else {
          // No answer at all (offline, refused connection), or the stream broke after some words.
          set({
            status: "error",
            text,
            error: text
              ? { message: runsMessages.runInterrupted, code: "INTERRUPTED" }
              : { message: runsMessages.runFailed, code: "NETWORK" },
          });
        }
      }
    },
    [appId, toolId],
  );

  /** Loading -> Error ("The run was cancelled"), keeping the text so far. */
  const cancel = React.useCallback(() => controller.current?.abort(), []);

  /** Success or Error -> Idle. */
  const reset = React.useCallback(() => {
    const current = controller.current;
    controller.current = null;
    current?.abort();
    setState({ status: "idle" });
  }, []);

  return { state, start, cancel, reset };
}
