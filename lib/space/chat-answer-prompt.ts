import "server-only";
import { listChatPage } from "@/db/queries/space-chat";
import type { App, ChatMessage } from "@/db/schema";
import { SPACE_PROMPT_HISTORY_MESSAGES } from "@/lib/constants";
import { ActionParser } from "./action-parser";
import {
  assistantInstructions,
  CONTINUE_INSTRUCTION,
  conversation,
  type PromptTurn,
  promptContext,
  selectPromptFiles,
} from "./assistant-prompt";
import { answerText, mergeContinuation } from "./chat-actions";
import type { ChatAction, ChatPart } from "./chat-schemas";
import { readCurrentFiles } from "./versions";

// What the model is asked for one answer of the space chat: the instructions with the app's files
// as they are now, the conversation so far, and the parser its answer is read with. A
// continuation ('Let's keep going') resumes the cut-off answer where it stopped.

export type AnswerPrompt = {
  instructions: string;
  turns: PromptTurn[];
  parser: ActionParser;
  userRequest: string;
  /** The action a continuation resumes. */
  resumedFrom?: ChatAction["resumedFrom"];
  /** The files put in the prompt, recorded on the answer (contextFiles / contextMetadata). */
  context: ReturnType<typeof promptContext>;
};

/** The prompt of the answer `messageId`, from the conversation and the app's files (the chat is ours). */
export async function answerPrompt(
  app: App,
  messageId: string,
  meta: { discussMode: boolean; continuation: boolean },
): Promise<AnswerPrompt> {
  const rows = (await listChatPage(app.id, null, SPACE_PROMPT_HISTORY_MESSAGES + 1))
    .filter((m) => m.id !== messageId)
    .reverse();
  const files = (await readCurrentFiles(app)).map((f) => ({ path: f.path, content: f.content }));
  const instructions = assistantInstructions({
    appName: app.header || "Untitled app",
    files,
    discussMode: meta.discussMode,
  });
  const context = promptContext(selectPromptFiles(files));

  if (!meta.continuation) {
    const last = rows.at(-1);
    if (last?.role !== "user") throw new Error("the message to answer is not the last one");
    return {
      instructions,
      context,
      turns: conversation(rows.map(turnOf)),
      parser: new ActionParser({ discussMode: meta.discussMode }),
      userRequest: last.content,
    };
  }
  // 'Let's keep going': the cut answer and the continuations after it are one answer to go on from.
  let start = rows.length;
  while (start > 0) {
    const m = rows[start - 1]!;
    if (m.role !== "assistant" || m.kind !== "message" || m.status !== "truncated") break;
    start--;
  }
  const chain = rows.slice(start);
  if (chain.length === 0) throw new Error("there is no cut-off answer to continue");
  const merged = mergeContinuation(chain.map(partsOf));
  const written = answerText(merged, "full");
  const last = merged.at(-1);
  const request = rows
    .slice(0, start)
    .reverse()
    .find((m) => m.role === "user");
  return {
    instructions,
    context,
    turns: [
      ...conversation(rows.slice(0, start).map(turnOf)),
      { role: "assistant", content: written },
      { role: "user", content: CONTINUE_INSTRUCTION },
    ],
    parser: ActionParser.resume(written, { discussMode: meta.discussMode }),
    userRequest: request?.content ?? "",
    resumedFrom:
      last?.type === "data-action" && last.data.isTruncated
        ? { messageId: chain.at(-1)!.id, actionId: last.data.id }
        : undefined,
  };
}

/** An earlier message as the model reads it: an answer in summary, with how it ended. */
function turnOf(m: ChatMessage): PromptTurn {
  return m.role === "user"
    ? { role: "user", content: m.content }
    : {
        role: "assistant",
        content: [answerText(partsOf(m), "summary"), STATUS_NOTES[m.status]].filter(Boolean).join("\n"),
      };
}

/** How an earlier answer ended, for the model (it sees a stopped or failed answer did not happen). */
const STATUS_NOTES: Record<ChatMessage["status"], string> = {
  streaming: "",
  complete: "",
  truncated: "[This answer was cut off: it was too long.]",
  incomplete: "[The builder stopped this answer: only its complete actions were applied.]",
  failed: "[This answer failed: none of its actions were applied.]",
};

function partsOf(m: ChatMessage): ChatPart[] {
  const parts = (m.parts ?? []) as ChatPart[];
  if (parts.length > 0) return parts;
  return m.content ? [{ type: "text", text: m.content }] : [];
}
