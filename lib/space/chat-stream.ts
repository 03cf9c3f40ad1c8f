import "server-only";
import { listChatPage } from "@/db/queries/space-chat";
import type { App } from "@/db/schema";
import { reserveModelCall } from "@/lib/ai/model-budget";
import { modelEndpoint } from "@/lib/ai/provider";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { takeStreamSlot } from "@/lib/realtime/stream-slots";
import { type NewUserMessage, startExchange } from "./chat";
import { Answer } from "./chat-answer";
import type { ChatImporter } from "./chat-imports";
import type { ChatSendBody } from "./chat-schemas";
import { assertSpaceApp } from "./commit";
import { prepareRetry } from "./restore";

// POST /api/apps/{appId}/chat: the chat assistant answers the builder, writing the app's files as it
// goes. Everything that can refuse the request does so
// before the stream starts, as a JSON error: the body, a retry that is not of the last message, a
// continue with nothing cut off, a chat busy with another answer (409 CHAT_BUSY, another tab), no model
// configured. Then the answer streams at once, as the AI SDK's UI message stream: prose as text parts,
// each action as a `data-action` part updated in place, the version the answer made. However it ends,
// it is stored once:
// - complete: the model finished; its complete file actions become ONE version annotated on it;
// - truncated: the model hit its output cap (or left an action open); the complete actions before
//   the cut are applied, the cut one is kept for 'Let's keep going', which resumes it;
// - incomplete: the builder stopped it (the client went away): the model call is aborted, the
//   complete actions are applied, the open one never;
// - failed: the model failed, took too long, or an action could not be applied: nothing is applied.
// This file makes those refusals and starts the answer; the answer itself is chat-answer.ts.

type Ctx = {
  app: App;
  session: Session;
  body: ChatSendBody;
  signal: AbortSignal;
  /** Starts an import_entities action's CSV import (lib/app-data/chat-import.ts, given by the route). */
  startImport?: ChatImporter;
};

export async function streamChat({ app, session, body, signal, startImport }: Ctx): Promise<Response> {
  assertSpaceApp(app);
  if (!modelEndpoint()) throw new AppError("NOT_CONFIGURED", "aiNotConfigured");
  const accountId = session.account!.accountId;

  let removedMessageIds: string[] = [];
  let discussMode = body.discussMode ?? false;
  let user: NewUserMessage | undefined;
  if (body.retryMessageId) {
    const prepared = await prepareRetry(app, body.retryMessageId);
    removedMessageIds = prepared.removedMessageIds;
    discussMode = prepared.message.annotations[0].discussModeMetadata.isDiscussMode;
  } else if (body.continue) {
    const [last] = await listChatPage(app.id, null, 1);
    if (last?.role !== "assistant" || last.kind !== "message" || last.status !== "truncated") {
      throw new AppError("BAD_REQUEST", "chatNothingToContinue", "NOTHING_TO_CONTINUE");
    }
    discussMode = last.discussMode;
  } else {
    const text = body.text!;
    user = { content: text, parts: [{ type: "text", text }] };
  }
  // One of the account's stream slots (429 over the cap), taken before the answer is started so a
  // refusal leaves the chat as it was; the answer gives it back when its stream ends.
  const slot = takeStreamSlot(accountId);
  try {
    // 429 once the builder's model budget is spent; the point comes back when the chat was busy.
    const budget = await reserveModelCall(session);
    let exchange: Awaited<ReturnType<typeof startExchange>>;
    try {
      // 409 CHAT_BUSY here when another answer of the app is being written.
      exchange = await startExchange(app, accountId, { user, discussMode });
    } catch (err) {
      await budget.giveBack();
      throw err;
    }
    const answer = new Answer(app, accountId, exchange.answer.id, {
      creatorId: session.userId,
      userMessageId: exchange.userMessage?.id ?? null,
      removedMessageIds,
      discussMode,
      continuation: body.continue === true,
      startImport,
    });
    return answer.respond(signal, slot);
  } catch (err) {
    slot.release();
    throw err;
  }
}
