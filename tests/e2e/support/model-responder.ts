import { type ChatReply, demoResponder, type Responder } from "../../support/openai-server";

// The "model" of the end-to-end run: scripts/e2e.ts starts the local OpenAI-compatible server
// (tests/support/openai-server.ts) with this responder and points the app at it (AI_BASE_URL).
// The server lives in the e2e script's process and specs run in Playwright's workers, so a spec
// cannot script it in memory; it scripts it by what the builder types instead. A field name
// holding one of these words gets that failure from the provider; any other gets the demo
// model's field. Names are per test, so parallel specs never see each other's scripts.

/** The provider is down: 503 on every attempt (the SDK retries once), so the app answers 502. */
export const MODEL_DOWN_WORD = "modeldown";
/** The model answers prose without a JSON object: no usable field name. */
export const MODEL_NO_JSON_WORD = "nojson";

/** The field name the builder typed, as lib/builder/magic-create.ts puts it in the prompt. */
function typedName(user: string): string {
  return /Field name:\s*"([^"\n]*)"/.exec(user)?.[1] ?? "";
}

export const e2eModelResponder: Responder = (req): ChatReply | Promise<ChatReply> => {
  const user = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const typed = typedName(user).toLowerCase();
  if (typed.includes(MODEL_DOWN_WORD)) {
    return { status: 503, message: "The model is overloaded.", retryAfterMs: 20 };
  }
  if (typed.includes(MODEL_NO_JSON_WORD)) return "I am not sure what field you mean.";
  return demoResponder(req);
};
