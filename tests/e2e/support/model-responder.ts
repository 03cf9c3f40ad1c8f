import { type ChatReply, type ChatRequest, demoResponder, type Responder } from "../../support/openai-server";

// The "model" of the end-to-end run: scripts/e2e.ts starts the local OpenAI-compatible server
// (tests/support/openai-server.ts) with this responder and points the app at it (AI_BASE_URL).
// The server lives in the e2e script's process and specs run in Playwright's workers, so a spec
// cannot script it in memory; it scripts it by what the builder types instead. A field name
// holding one of these words gets that failure from the provider; any other gets the demo
// model's field (a CSV column header holding one fails the import's mapping the same way). Names
// are per test, so parallel specs never see each other's scripts.

/** The provider is down: 503 on every attempt (the SDK retries once), so the app answers 502. */
export const MODEL_DOWN_WORD = "modeldown";
/** The model answers prose without a JSON object: no usable field name. */
export const MODEL_NO_JSON_WORD = "nojson";

/** A tool run whose input holds this word is answered slowly, word by word (to watch it stream, or cancel it). */
export const RUN_SLOW_WORD = "slowanswer";
/**
 * A space chat answer asked with this word streams until its first action has begun, then stalls
 * until it is stopped: still streaming when the test presses Stop, however busy the machine.
 */
export const CHAT_HELD_WORD = "heldanswer";
/** A tool run whose input holds this word loses its connection to the model after a few words. */
export const RUN_CUT_WORD = "cutanswer";

/**
 * A space chat message holding this word is answered with an entity and an import_entities action of
 * CHAT_IMPORT_CSV into it (the entity's name follows the word: "chatimport Books3f2a").
 */
export const CHAT_IMPORT_WORD = "chatimport";
/** The file that answer imports: 3 rows, one of which fails the schema (a title over 20 characters). */
export const CHAT_IMPORT_CSV =
  "Title,Done,Notes\nRead Dune,yes,x\nReturn the library book on time,no,y\nCall Sam,no,z\n";

/**
 * A space chat message holding this word is answered with a request_secrets action asking for
 * CHAT_SECRET_NAME (its name follows the word, when given: "chatsecrets MAIL_KEY_3f2a").
 */
export const CHAT_SECRETS_WORD = "chatsecrets";
export const CHAT_SECRET_DESCRIPTION = "Your mail provider's API key";

function secretsAnswer(user: string): string {
  const name = new RegExp(`${CHAT_SECRETS_WORD}\\s+(\\w+)`).exec(user)?.[1] ?? "MAIL_API_KEY";
  const body = { secrets: [{ secretName: name, description: CHAT_SECRET_DESCRIPTION }] };
  return [
    "Your app needs a key to send mail.",
    `<action type="request_secrets">${JSON.stringify(body)}</action>`,
  ].join("\n");
}

function importAnswer(user: string): string {
  const name = new RegExp(`${CHAT_IMPORT_WORD}\\s+(\\w+)`).exec(user)?.[1] ?? "Imported";
  const schema = {
    type: "object",
    properties: { title: { type: "string", maxLength: 20 }, done: { type: "boolean" } },
    required: ["title"],
  };
  // No mapping: each column fills the field of its name (Notes fills none and is ignored).
  const body = { csv: CHAT_IMPORT_CSV };
  return [
    "Importing your rows.",
    `<action type="add_entity" name="${name}">${JSON.stringify(schema)}</action>`,
    `<action type="import_entities" name="${name}">${JSON.stringify(body)}</action>`,
  ].join("\n");
}

/** The field name the builder typed, as lib/builder/magic-create.ts puts it in the prompt. */
function typedName(user: string): string {
  return /Field name:\s*"([^"\n]*)"/.exec(user)?.[1] ?? "";
}

/** The demo model's words for this request. */
async function demoText(req: ChatRequest): Promise<string> {
  const reply = await demoResponder(req);
  return typeof reply === "string" ? reply : "text" in reply ? reply.text : "";
}

export const e2eModelResponder: Responder = async (req): Promise<ChatReply> => {
  const user = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const typed = typedName(user).toLowerCase();
  // The CSV import's mapping: a column header holding the word.
  const csvHeaders = (/^CSV headers: (.*)$/m.exec(user)?.[1] ?? "").toLowerCase();
  if (typed.includes(MODEL_DOWN_WORD) || csvHeaders.includes(MODEL_DOWN_WORD)) {
    return { status: 503, message: "The model is overloaded.", retryAfterMs: 20 };
  }
  if (typed.includes(MODEL_NO_JSON_WORD)) return "I am not sure what field you mean.";
  if (user.includes(CHAT_HELD_WORD)) {
    const text = await demoText(req);
    const action = text.indexOf("<action");
    const words = (t: string) => t.match(/\S+\s*|\s+/g)?.length ?? 0;
    // A few words into the action (its file has begun), or half way when there is none.
    const holdAfterChunks = action >= 0 ? words(text.slice(0, action)) + 8 : Math.floor(words(text) / 2);
    return { text, chunkDelayMs: 150, holdAfterChunks };
  }
  if (user.includes(CHAT_IMPORT_WORD)) return importAnswer(user);
  if (user.includes(CHAT_SECRETS_WORD)) return secretsAnswer(user);
  // Tool runs (lib/runs/prompt.ts): the main input is the user's turn.
  if (user.includes(RUN_SLOW_WORD) || user.includes(RUN_CUT_WORD)) {
    const text = await demoText(req);
    return user.includes(RUN_SLOW_WORD) ? { text, chunkDelayMs: 150 } : { text, dropAfterChunks: 6 };
  }
  return demoResponder(req);
};
