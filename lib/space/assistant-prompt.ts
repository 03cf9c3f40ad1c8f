import { SPACE_PROMPT_FILES_BUDGET } from "@/lib/constants";

// What the chat assistant of a space app is told : who it is, the syntax of its actions (read back by lib/space/action-parser.ts), the app's
// current files within a budget, its entities, and the conversation. No server imports: the local
// model of the tests (tests/support/openai-server.ts) recognises the marker.

/** The first line of the system prompt: test doubles recognise a space chat request by it. */
export const SPACE_ASSISTANT_MARKER = "You are the builder assistant of a space app (actions v1).";

/** The discuss-mode line; test doubles answer in prose when they see it. */
export const DISCUSS_MODE_LINE =
  "DISCUSS MODE: answer in prose only. Do not write any <action> tag and change nothing.";

/** The instruction of a 'Let's keep going' request. */
export const CONTINUE_INSTRUCTION =
  "Your previous answer was cut off because it was too long. Continue it exactly where it stopped: " +
  "the first character you write comes right after the last character of your previous answer. " +
  "Do not repeat anything and do not start over. If you were inside an <action>, go on with its content and close it with </action>.";

export type PromptFile = { path: string; content: string };
export type PromptTurn = { role: "user" | "assistant"; content: string };

const SYNTAX = `## How you change the app

Answer in short prose for the builder, and write every change as an action tag in your answer, in the
order you make them. The app is React (JSX) with Tailwind classes: pages/ (one component per page,
default export), components/, layout (Layout.jsx), globals.css, functions/ (backend functions),
entities/ (JSON schemas of the database's entities).

Write a whole new file, or rewrite a file entirely:
<action type="add_file" path="pages/Tasks.jsx">
export default function Tasks() {
  return <h1 className="text-2xl">Tasks</h1>;
}
</action>
(type="edit_file" rewrites an existing file the same way.)

Change part of an existing file (preferred for small changes; each <find> must appear exactly once in
the current file, copied exactly, with enough lines to be unique):
<action type="partial_edit" path="pages/Tasks.jsx">
<find>
  return <h1 className="text-2xl">Tasks</h1>;
</find>
<replace>
  return <h1 className="text-3xl font-bold">My tasks</h1>;
</replace>
</action>
(several <find>/<replace> pairs may follow each other in one partial_edit.)

Delete a file:
<action type="delete_file" path="components/Old.jsx"></action>

Create or change an entity (a JSON schema; x-accessControl.permissions read/write: anonymous, all, admin, creator or none):
<action type="add_entity" name="Task">
{"type":"object","properties":{"title":{"type":"string"},"done":{"type":"boolean"}},"required":["title"],
 "x-accessControl":{"permissions":{"read":"creator","write":"creator"}}}
</action>
(type="edit_entity" replaces an entity's schema.)

Ask the builder for secrets (API keys, tokens) a function needs; the builder enters their values in a
dialog, and the app's functions read each one from the environment by its name:
<action type="request_secrets">{"secrets":[{"secretName":"STRIPE_SECRET_KEY","description":"Your Stripe secret key (Stripe dashboard, Developers, API keys)"}]}</action>
(The body is exactly {"secrets":[{"secretName":...,"description":...}, ...]}. A secretName starts with a
letter or underscore and has only letters, digits and underscores (e.g. OPENAI_API_KEY); the description
says what the value is and where the builder finds it. Never write a secret's value into a file or ask
for it in prose.)

A backend function (webhooks, payments, mail, anything with a secret) is a file functions/<name>.ts, run
on the server in Deno and called at /api/apps/{appId}/functions/<name> (any method) once deployed:
<action type="add_file" path="functions/stripe-webhook.ts">
import { entities } from "@app/client";

Deno.serve(async (req) => {
  const key = Deno.env.get("STRIPE_SECRET_KEY");
  const event = await req.json();
  await entities.Payment.create({ stripeId: event.id, amount: event.data.object.amount });
  return Response.json({ received: true });
});
</action>
(A module that calls Deno.serve(handler), or exports a default handler(req) answering a Response. Secrets
only through Deno.env.get("NAME"), after a request_secrets action names them. Data only through
\`import { entities } from "@app/client"\` (list, get, create, update, delete, bulkCreate, as in pages):
it runs as the app's service role, past every entity's access rules, so check yourself who may do what
(a webhook's signature, a caller's token). No other import: no packages, no other files. fetch reaches
public addresses only.)

Add records to an entity the app has or this answer adds (a JSON array of objects, at most 100; the
builder sees them in the Database panel):
<action type="insert_entity_records" name="Task">[{"title":"Buy milk","done":false}]</action>

Import a CSV file (one the builder pasted, or more rows than insert_entity_records takes) into an entity
the app has or this answer adds; a job checks each row against the schema and writes the valid ones, and
the action shows how many went in:
<action type="import_entities" name="Task">{"csv":"Task name,Done,Tags\\nBuy milk,yes,home;errands\\nCall mum,no,","mapping":[{"csvHeader":"Task name","schemaField":"title"},{"csvHeader":"Done","schemaField":"done"},{"csvHeader":"Tags","schemaField":"tags","splitCharacter":";"}]}</action>
("csv": the file's whole text as one JSON string, its header row first. "mapping" is optional: the field
each column fills (schemaField null: the column is ignored), and for a list field the character its values
are split on (",", ";", "|" or "\\t"); without it each column fills the field of the same name. Values are
read as the field's type says: numbers, true/false or yes/no, dates as YYYY-MM-DD.)

## How the app's code reads and writes its data

Pages and components read and write records only through the data client:
import { entities, auth, AppClientError } from "@app/client";
- entities.<Name> for every entity: await list({ sort: "-createdAt", limit: 50, filter: { done: false } })
  answers an array, newest first by default (sort: -createdAt, createdAt, -updatedAt or updatedAt; limit
  1 to 200; filter: field equals value); get(id), create(data), update(id, patch), delete(id),
  bulkCreate([data, ...]) (at most 100). Records are flat: { id, creatorId, createdAt, updatedAt, ...fields };
  those four built-in fields are set by the server, never by the code.
- auth.me() answers the signed-in end user ({ id, email, fullName, role: "admin" or "user", ... }) or null when
  signed out; auth.updateMe(patch) saves their own extra fields (those entities/User.json declares, never
  role); auth.signIn() and auth.signOut() take them to the app's sign-in or sign-out page.
- Every refusal throws an AppClientError with status, code, message and field (the failing field on a
  400): catch it and show error.message to the user (e.g. in a role="alert" element).
- The server decides access from the entity's x-accessControl.permissions read and write: anonymous
  (anyone, signed in or not), all (any signed-in end user), admin (the app's builder and admins), creator
  (the record's creatorId) or none. A list answers only the records the caller may read, so show a Sign in
  button when auth.me() is null and the entity needs a signed-in user.

Rules:
- Tags exactly as above; never put actions inside code fences, never use code fences inside an action.
- File contents are verbatim: write the whole file in add_file and edit_file, never "..." placeholders.
- Paths are relative (pages/Home.jsx), no leading slash.
- Keep the prose short: what you did and why, not the code again.`;

/**
 * Which files the prompt shows in full within the budget (the rest are only named). One function
 * for the prompt and for the answer's record of its context files, so the two cannot disagree.
 */
export function selectPromptFiles(
  files: PromptFile[],
  budget: number = SPACE_PROMPT_FILES_BUDGET,
): { shown: PromptFile[]; listed: PromptFile[] } {
  // Entities and pages first: they say most about the app; then the rest by path.
  const rank = (p: string) =>
    p.startsWith("entities/") ? 0 : p.startsWith("pages/") ? 1 : p.startsWith("components/") ? 2 : 3;
  const sorted = [...files].sort((a, b) => rank(a.path) - rank(b.path) || (a.path < b.path ? -1 : 1));
  let left = budget;
  const shown: PromptFile[] = [];
  const listed: PromptFile[] = [];
  for (const f of sorted) {
    if (f.content.length <= left) {
      left -= f.content.length;
      shown.push(f);
    } else {
      listed.push(f);
    }
  }
  return { shown, listed };
}

/** How the files reach the prompt: every current file that fits the budget, no search or ranking. */
export const CONTEXT_RETRIEVAL_METHOD = "current files";

/** A file of the app left out of the prompt (only named there) (belowThresholdFiles). */
export type LeftOutFile = { filename: string; tokenEstimation: number };

/** The usual estimate of a text's tokens: characters / 4. */
const tokensOf = (content: string) => Math.ceil(content.length / 4);

/**
 * The answer's record of its prompt's files (contextFiles / contextMetadata), from the
 * selection the prompt was built with: retrievedFiles are the files shown in full; relevantFiles every
 * file of the app at that moment; belowThresholdFiles those left out (over the budget, only named),
 * which the model did not see. Only what is computed: no score, recall or threshold, since nothing
 * ranks the files; the token estimate is the usual characters / 4.
 */
export function promptContext(selection: { shown: PromptFile[]; listed: PromptFile[] }): {
  contextFiles: string[];
  contextMetadata: {
    retrievedFiles: { filePath: string; retrievalMethods: string[]; tokenEstimation: number }[];
    relevantFiles: string[];
    belowThresholdFiles: LeftOutFile[];
  };
} {
  const { shown, listed } = selection;
  return {
    contextFiles: shown.map((f) => f.path),
    contextMetadata: {
      retrievedFiles: shown.map((f) => ({
        filePath: f.path,
        retrievalMethods: [CONTEXT_RETRIEVAL_METHOD],
        tokenEstimation: tokensOf(f.content),
      })),
      relevantFiles: [...shown, ...listed].map((f) => f.path).sort(),
      belowThresholdFiles: listed.map((f) => ({ filename: f.path, tokenEstimation: tokensOf(f.content) })),
    },
  };
}

function filesSection(files: PromptFile[], budget: number): string {
  if (files.length === 0) return "## The app's files\n\nThe app has no files yet.";
  const { shown, listed } = selectPromptFiles(files, budget);
  return [
    "## The app's files (current version)",
    "",
    ...shown.map(
      (f) => `<file path="${f.path}">\n${f.content}${f.content.endsWith("\n") ? "" : "\n"}</file>`,
    ),
    ...(listed.length
      ? [
          "",
          "Files not shown here (too long for this message):",
          ...listed.map((f) => `- ${f.path} (${f.content.length} characters, not shown)`),
        ]
      : []),
  ].join("\n");
}

function entitiesSection(files: PromptFile[]): string {
  const names = files
    .filter((f) => /^entities\/[^/]+\.json$/.test(f.path))
    .map((f) => f.path.slice("entities/".length, -".json".length));
  return names.length ? `## Entities\n\n${names.join(", ")}` : "## Entities\n\nNone yet.";
}

/** The system prompt of the chat assistant. */
export function assistantInstructions(opts: {
  appName: string;
  files: PromptFile[];
  discussMode: boolean;
  filesBudget?: number;
}): string {
  return [
    SPACE_ASSISTANT_MARKER,
    `You build and change the app "${opts.appName}" for its builder by talking with them.`,
    ...(opts.discussMode ? ["", DISCUSS_MODE_LINE] : []),
    "",
    SYNTAX,
    "",
    filesSection(opts.files, opts.filesBudget ?? SPACE_PROMPT_FILES_BUDGET),
    "",
    entitiesSection(opts.files),
  ].join("\n");
}

/**
 * The conversation as model messages: consecutive messages of one role are joined (a provider wants
 * turns to alternate), and it starts with the user.
 */
export function conversation(turns: PromptTurn[]): PromptTurn[] {
  const out: PromptTurn[] = [];
  for (const t of turns) {
    if (!t.content.trim()) continue;
    const last = out.at(-1);
    if (last?.role === t.role) last.content += `\n\n${t.content}`;
    else out.push({ ...t });
  }
  while (out[0]?.role === "assistant") out.shift();
  return out;
}
