import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { actionTag, type ParsedAction, parseEdits, stripFence } from "./action-parser";
import { ACTION_TITLES, type ChatAction, type ChatPart, FILE_ACTION_TYPES } from "./chat-schemas";
import type { FileChange } from "./schemas";

// The chat actions of an answer as the client sees and the message stores them, made
// from what the parser read; the file changes they make; and an answer written back as text for the
// model (its own earlier answers in the conversation, the cut answer a continuation goes on from).

const entityFile = (name: string) => `entities/${name}.json`;

function fileOf(a: Pick<ParsedAction, "type" | "path" | "name">): string | null {
  if (a.path) return a.path;
  if ((a.type === "add_entity" || a.type === "edit_entity") && a.name) return entityFile(a.name);
  return null;
}

export function actionTitle(a: Pick<ParsedAction, "type" | "path" | "name" | "title">): string {
  if (a.title) return a.title;
  return fillTemplate(messages[ACTION_TITLES[a.type]], { file: fileOf(a) ?? "", name: a.name ?? "" });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(stripFence(text).trim()) };
  } catch {
    return { ok: false };
  }
}

/**
 * The action as the client sees it, a copy (the parser's object keeps changing). A complete action
 * gets what its content means: the file without a stray code fence, the edits, the parsed body.
 */
export function chatActionOf(
  messageId: string,
  a: ParsedAction,
  extra: { resumedFrom?: ChatAction["resumedFrom"]; status?: ChatAction["status"] } = {},
): ChatAction {
  const status = extra.status ?? a.status;
  const action: ChatAction = {
    id: `${messageId}:${a.index}`,
    type: a.type,
    title: actionTitle(a),
    file: fileOf(a),
    name: a.name,
    content: a.content,
    status,
    isComplete: status === "complete",
    isTruncated: status === "truncated",
    applied: false,
    ...(extra.resumedFrom ? { resumedFrom: extra.resumedFrom } : {}),
  };
  if (status !== "complete") return action;
  switch (a.type) {
    case "add_file":
    case "edit_file":
      action.content = stripFence(a.content);
      break;
    case "partial_edit":
      action.edits = parseEdits(a.content);
      break;
    case "add_entity":
    case "edit_entity": {
      action.content = stripFence(a.content);
      const parsed = parseJson(action.content);
      const perms = parsed.ok
        ? (
            parsed.value as {
              "x-accessControl"?: { permissions?: { read?: unknown; write?: unknown } };
            } | null
          )?.["x-accessControl"]?.permissions
        : undefined;
      action.permissions =
        typeof perms?.read === "string" && typeof perms.write === "string"
          ? { read: perms.read, write: perms.write }
          : null;
      break;
    }
    case "delete_file":
      break;
    default: {
      const parsed = parseJson(a.content);
      if (parsed.ok) action.data = parsed.value;
    }
  }
  return action;
}

/** Whether an action changes the app's files (the others are stored with the message only). */
export const changesFiles = (a: Pick<ChatAction, "type">) => FILE_ACTION_TYPES.includes(a.type);

/**
 * The file change of a complete file action (null for the stored-only ones).
 * @throws AppError EDIT_INVALID when a partial_edit names no part to replace
 */
export function fileChangeOf(a: ChatAction): FileChange | null {
  if (a.status !== "complete" || !changesFiles(a)) return null;
  switch (a.type) {
    case "add_file":
    case "edit_file":
      return { type: a.type, path: a.file!, content: a.content };
    case "partial_edit": {
      const edits = (a.edits ?? []).filter((e) => e.find.length > 0);
      if (edits.length === 0) {
        throw new AppError(
          "BAD_REQUEST",
          { key: "chatEditInvalid", vars: { path: a.file! } },
          "EDIT_INVALID",
        );
      }
      return { type: "partial_edit", path: a.file!, edits };
    }
    case "delete_file":
      return { type: "delete_file", path: a.file! };
    case "add_entity":
    case "edit_entity":
      return { type: a.type, name: a.name!, content: a.content };
    default:
      return null;
  }
}

/** An action written back as the model wrote it: its tag, content, and closing tag when it was closed. */
export function actionText(a: ChatAction): string {
  const entity = a.type === "add_entity" || a.type === "edit_entity";
  const tag = actionTag({ type: a.type, path: entity ? null : a.file, name: a.name });
  // A cut action stays open, so a continuation's parser is inside it again.
  const open = a.status === "truncated" || a.status === "streaming";
  return `${tag}\n${a.content}${open ? "" : "</action>"}`;
}

const isAction = (p: ChatPart): p is Extract<ChatPart, { type: "data-action" }> => p.type === "data-action";

/**
 * An answer as text for the model. `full`: as written, actions with their contents (the answer a
 * continuation goes on from; a cut action is left open). `summary`: prose with one line per action
 * (earlier answers: their files are in the prompt's current files).
 */
export function answerText(parts: ChatPart[], mode: "full" | "summary"): string {
  let out = "";
  for (const p of parts) {
    const piece = isAction(p)
      ? mode === "full"
        ? actionText(p.data)
        : `[${p.data.type}${p.data.file || p.data.name ? ` ${p.data.file ?? p.data.name}` : ""}: ${p.data.status}]`
      : p.text;
    if (out && !out.endsWith("\n") && (isAction(p) || mode === "summary")) out += "\n";
    out += piece;
  }
  return out;
}

/**
 * The parts of a cut answer and the continuations that followed it, as one answer: an action a
 * continuation resumed is replaced by the resumed one (which holds the whole content so far); a cut
 * action the continuation started over is dropped.
 */
export function mergeContinuation(chain: ChatPart[][]): ChatPart[] {
  let merged: ChatPart[] = [];
  for (const parts of chain) {
    const resumed = parts.find(isAction)?.data.resumedFrom;
    if (resumed) merged = merged.filter((p) => !(isAction(p) && p.data.id === resumed.actionId));
    merged.push(...parts);
  }
  // A cut action followed by anything was given up.
  return merged.filter((p, i) => !(isAction(p) && p.data.isTruncated && i < merged.length - 1));
}
