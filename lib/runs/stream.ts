import { RUN_ID_HEADER, type RunStreamPart } from "./schemas";

// The answer stream of a run, in the AI SDK's UI message stream protocol (v1): Server-Sent
// Events, one JSON part per `data:` line, ended by `data: [DONE]`. The AI SDK's own readers
// (useCompletion, readUIMessageStream) and a plain fetch reader can all read it.

const encoder = new TextEncoder();

export const TEXT_PART_ID = "text-1";

export function encodePart(part: RunStreamPart): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(part)}\n\n`);
}

export const DONE = encoder.encode("data: [DONE]\n\n");

export function streamHeaders(runId: string): Record<string, string> {
  return {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
    "x-vercel-ai-ui-message-stream": "v1",
    [RUN_ID_HEADER]: runId,
  };
}
