import { insertApp } from "../../db/queries/apps";
import type { App } from "../../db/schema";
import { finishAnswer, startExchange } from "../../lib/space/chat";
import type { FileChange } from "../../lib/space/schemas";
import { createBuilder } from "./factories";

// Space apps for the tests: an app and a conversation written through the chat's own services
// (lib/space/chat.ts), as the chat stream writes it.

export async function createSpaceApp(ownerAccountId: string, header = "Space App"): Promise<App> {
  return insertApp({ ownerAccountId, type: "space", header });
}

export type Turn = { user: string; answer: string; changes?: FileChange[]; actions?: unknown[] };
export type TurnResult = { userMessageId: string; answerId: string; versionId: string | null };

/** One exchange: the user's message, then the answer with its changes applied as a version. */
export async function say(app: App, accountId: string, turn: Turn): Promise<TurnResult> {
  const started = await startExchange(app, accountId, { user: { content: turn.user } });
  const done = await finishAnswer(app, accountId, started.answer.id, {
    status: "complete",
    content: turn.answer,
    changes: turn.changes,
    actions: turn.actions,
    userRequest: turn.user,
  });
  return {
    userMessageId: started.userMessage!.id,
    answerId: done.message.id,
    versionId: done.version?.id ?? null,
  };
}

export const page = (name: string, text: string): FileChange => ({
  type: "add_file",
  path: `pages/${name}.jsx`,
  content: `export default function ${name}() {\n  return <main>${text}</main>;\n}\n`,
});

/** A builder (explorer plan) and their space app whose first version adds one entity (no record). */
export async function builderAppWithEntity(name: string, schema: string) {
  const b = await createBuilder({ plan: "explorer" });
  const app = await createSpaceApp(b.account.accountId);
  await say(app, b.account.accountId, {
    user: `${name}s`,
    answer: "Done",
    changes: [{ type: "add_entity", name, content: schema }],
  });
  return { b, app };
}
