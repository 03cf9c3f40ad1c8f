import { ACTION_TYPES, type ActionType } from "./chat-schemas";

// The chat assistant writes its answer as prose with actions between it (lib/space/assistant-prompt.ts
// tells it the syntax):
//
//   I'll add a home page.
//   <action type="add_file" path="pages/Home.jsx">
//   export default function Home() { return <h1>Hi</h1>; }
//   </action>
//   Done.
//
// This parser reads that text as it streams, in chunks cut anywhere (inside a tag, inside `</action>`),
// and tells what it sees as events: prose, an action starting, more of its content, its end. It is
// pure (no I/O) so it can be tested on every way a stream can be cut. Rules:
// - An action opens with `<action` + attributes + `>` (or `/>`: no content); its content is everything
//   up to the next `</action>`, verbatim: JSX's own angle brackets are content. One newline right
//   after the opening tag is not content (the model puts the content on its own lines).
// - An opening tag that is not an action (no known `type`, a file action without `path`, an entity
//   action without `name`, no `>` within HEADER_MAX characters) is prose.
// - At the end, an action still open is `truncated`: the model stopped (its output cap) before closing it.
// - A continuation ('Let's keep going') rebuilds the state from the earlier answer's text
//   (ActionParser.resume) and goes on: the cut action's content continues, so the final content is
//   the concatenation. If the model starts that action over instead (its output opens with a new
//   `<action` tag), the cut one is dropped.
// - Discuss mode: actions are read (so their text is not shown as prose) but never reported.

export type ParsedActionStatus = "streaming" | "complete" | "truncated";

export type ParsedAction = {
  /** The order of the action in the answer, from 0. */
  index: number;
  type: ActionType;
  path: string | null;
  name: string | null;
  /** The `title` attribute, when the model gave one. */
  title: string | null;
  /** The content so far, verbatim. */
  content: string;
  status: ParsedActionStatus;
  /** It continues an action an earlier answer was cut in (content starts with what that one wrote). */
  resumed: boolean;
};

export type ParserEvent =
  | { type: "text"; text: string }
  /** `content`: the action's content when it started (a resumed action's content so far; else ""). */
  | { type: "action-start"; action: ParsedAction; content: string }
  | { type: "action-delta"; action: ParsedAction; delta: string }
  | { type: "action-end"; action: ParsedAction };

const OPEN = "<action";
const CLOSE = "</action>";
/** An opening tag longer than this is not one (a stray `<action` in prose). */
export const HEADER_MAX = 1000;

const PATH_TYPES: ReadonlySet<ActionType> = new Set(["add_file", "edit_file", "partial_edit", "delete_file"]);
const NAME_TYPES: ReadonlySet<ActionType> = new Set(["add_entity", "edit_entity"]);

/** How many characters at the end of `text` could be the start of `token` (and must wait for more). */
function heldTail(text: string, token: string): number {
  for (let k = Math.min(token.length - 1, text.length); k > 0; k--) {
    if (text.endsWith(token.slice(0, k))) return k;
  }
  return 0;
}

type Header = { end: number; selfClosing: boolean; attrs: Record<string, string> };

/** Reads the opening tag at the start of `buf` (which starts with `<action`): wait for more, not a tag, or the tag. */
function readHeader(buf: string, final: boolean): Header | "wait" | "invalid" {
  if (buf.length === OPEN.length) return final ? "invalid" : "wait";
  if (!/[\s/>]/.test(buf[OPEN.length]!)) return "invalid";
  let quote: string | null = null;
  for (let i = OPEN.length; i < buf.length && i <= HEADER_MAX; i++) {
    const c = buf[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "<") return "invalid";
    else if (c === ">") {
      const inner = buf.slice(OPEN.length, i);
      const attrs: Record<string, string> = {};
      for (const m of inner.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attrs[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? "";
      }
      return { end: i + 1, selfClosing: inner.trimEnd().endsWith("/"), attrs };
    }
  }
  return buf.length > HEADER_MAX || final ? "invalid" : "wait";
}

const decodeAttr = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();

/** The action an opening tag describes, or null when it is not one. */
function actionOf(
  attrs: Record<string, string>,
): Omit<ParsedAction, "index" | "content" | "status" | "resumed"> | null {
  const type = attrs.type?.trim() as ActionType | undefined;
  if (!type || !ACTION_TYPES.includes(type)) return null;
  const path = attrs.path ?? attrs.file;
  const name = attrs.name ?? attrs.entity;
  if (PATH_TYPES.has(type) && !path?.trim()) return null;
  if (NAME_TYPES.has(type) && !name?.trim()) return null;
  return {
    type,
    path: path?.trim() ? decodeAttr(path) : null,
    name: name?.trim() ? decodeAttr(name) : null,
    title: attrs.title?.trim() ? decodeAttr(attrs.title) : null,
  };
}

export class ActionParser {
  /** Every action reported, in order (discuss mode: none). */
  readonly actions: ParsedAction[] = [];
  private proseText = "";
  private buf = "";
  private mode: "prose" | "action" = "prose";
  private current: ParsedAction | null = null;
  /** Drop one newline right after an opening tag. */
  private leadStrip = false;
  /** A resumed action, until the continuation shows whether it goes on with it or starts over. */
  private deciding: string | null = null;
  private index = 0;
  private finished = false;
  private readonly discuss: boolean;
  private out: ParserEvent[] = [];

  constructor(opts: { discussMode?: boolean } = {}) {
    this.discuss = opts.discussMode ?? false;
  }

  /**
   * A parser in the state the text of an earlier, cut answer (`previous`, as the model wrote it) left
   * it: the continuation is pushed into it. Nothing of `previous` is reported again; an action it was
   * cut in is reported anew, `resumed`, index 0, its content so far included.
   */
  static resume(previous: string, opts: { discussMode?: boolean } = {}): ActionParser {
    const p = new ActionParser(opts);
    p.push(previous);
    p.actions.length = 0;
    p.proseText = "";
    p.index = 0;
    if (p.mode === "action" && p.current) {
      p.current.index = p.index++;
      p.current.resumed = true;
      p.deciding = "";
    }
    return p;
  }

  /** The prose so far: the answer without its actions. */
  get prose(): string {
    return this.proseText;
  }

  /** The action being written, if any. */
  get open(): ParsedAction | null {
    return this.mode === "action" ? this.current : null;
  }

  /** Reads the next chunk of the answer. */
  push(chunk: string): ParserEvent[] {
    if (this.finished) throw new Error("ActionParser: push after finish");
    if (this.deciding !== null) {
      this.deciding += chunk;
      if (!this.decide(false)) return this.take();
    } else {
      this.buf += chunk;
    }
    this.run(false);
    return this.take();
  }

  /** The answer ended: held text is let out, an action still open is truncated. */
  finish(): ParserEvent[] {
    if (this.finished) return [];
    if (this.deciding !== null) this.decide(true);
    this.run(true);
    this.finished = true;
    if (this.mode === "prose") {
      this.text(this.buf);
    } else if (this.current) {
      if (this.buf) this.append(this.buf);
      this.current.status = "truncated";
      this.report({ type: "action-end", action: this.current });
      this.mode = "prose";
    }
    this.buf = "";
    return this.take();
  }

  private take(): ParserEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }

  private report(e: ParserEvent) {
    if (e.type !== "text" && this.discuss) return;
    this.out.push(e);
  }

  private text(t: string) {
    if (!t) return;
    this.proseText += t;
    this.report({ type: "text", text: t });
  }

  private append(t: string) {
    if (!t || !this.current) return;
    this.current.content += t;
    this.report({ type: "action-delta", action: this.current, delta: t });
  }

  /** A resumed action: true once decided (the buffer then holds what is to be read). */
  private decide(final: boolean): boolean {
    const pending = this.deciding!;
    const s = pending.trimStart();
    if (!final && (s === "" || (s.length < OPEN.length && OPEN.startsWith(s)))) return false;
    this.deciding = null;
    if (s.startsWith(OPEN) && this.current) {
      // Started over: the cut action is given up, the new text is read from scratch.
      this.actions.length = 0;
      this.index = 0;
      this.current = null;
      this.mode = "prose";
      this.leadStrip = false;
      this.buf = s;
      return true;
    }
    const action = this.current!;
    if (!this.discuss) this.actions.push(action);
    this.report({ type: "action-start", action, content: action.content });
    this.buf += pending;
    return true;
  }

  private run(final: boolean) {
    for (;;) {
      if (this.mode === "prose") {
        const i = this.buf.indexOf(OPEN);
        if (i === -1) {
          const keep = final ? 0 : heldTail(this.buf, OPEN);
          this.text(this.buf.slice(0, this.buf.length - keep));
          this.buf = this.buf.slice(this.buf.length - keep);
          return;
        }
        this.text(this.buf.slice(0, i));
        this.buf = this.buf.slice(i);
        const header = readHeader(this.buf, final);
        if (header === "wait") return;
        const spec = header === "invalid" ? null : actionOf(header.attrs);
        if (header === "invalid" || !spec) {
          // Not an action: its first character is prose, and reading goes on after it.
          this.text(this.buf[0]!);
          this.buf = this.buf.slice(1);
          continue;
        }
        const action: ParsedAction = {
          ...spec,
          index: this.index++,
          content: "",
          status: "streaming",
          resumed: false,
        };
        this.current = action;
        if (!this.discuss) this.actions.push(action);
        this.report({ type: "action-start", action, content: action.content });
        this.buf = this.buf.slice(header.end);
        if (header.selfClosing) {
          action.status = "complete";
          this.report({ type: "action-end", action });
          continue;
        }
        this.mode = "action";
        this.leadStrip = true;
        continue;
      }
      // Inside an action.
      if (this.leadStrip) {
        if (this.buf === "" || (this.buf === "\r" && !final)) return;
        if (this.buf.startsWith("\r\n")) this.buf = this.buf.slice(2);
        else if (this.buf.startsWith("\n")) this.buf = this.buf.slice(1);
        this.leadStrip = false;
      }
      const j = this.buf.indexOf(CLOSE);
      if (j === -1) {
        const keep = final ? 0 : heldTail(this.buf, CLOSE);
        this.append(this.buf.slice(0, this.buf.length - keep));
        this.buf = this.buf.slice(this.buf.length - keep);
        return;
      }
      this.append(this.buf.slice(0, j));
      this.buf = this.buf.slice(j + CLOSE.length);
      const action = this.current!;
      action.status = "complete";
      this.report({ type: "action-end", action });
      this.mode = "prose";
    }
  }
}

/**
 * The find/replace pairs of a partial_edit's content:
 * `<find>\nold\n</find>\n<replace>\nnew\n</replace>`, as many as written. One newline after the
 * opening and before the closing tag belongs to the tags.
 */
export function parseEdits(content: string): { find: string; replace: string }[] {
  const edits: { find: string; replace: string }[] = [];
  const re = /<find>\r?\n?([\s\S]*?)\r?\n?<\/find>\s*<replace>\r?\n?([\s\S]*?)\r?\n?<\/replace>/g;
  for (const m of content.matchAll(re)) edits.push({ find: m[1]!, replace: m[2]! });
  return edits;
}

/** A whole file the model wrapped in a code fence anyway (```jsx ... ```): the file without it. */
export function stripFence(content: string): string {
  const m = /^\s*```[\w.+-]*[ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*\r?\n?\s*$/.exec(content);
  return m ? `${m[1]}\n` : content;
}

/** The opening tag of an action as the model writes it (to show the model its own earlier answer). */
export function actionTag(a: {
  type: ActionType;
  path?: string | null;
  name?: string | null;
  title?: string | null;
}): string {
  const attr = (k: string, v: string | null | undefined) =>
    v ? ` ${k}="${v.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"` : "";
  return `<action type="${a.type}"${attr("path", a.path)}${attr("name", a.name)}${attr("title", a.title)}>`;
}
