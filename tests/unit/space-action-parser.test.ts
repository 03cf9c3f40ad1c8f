import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import {
  ActionParser,
  HEADER_MAX,
  type ParsedAction,
  type ParserEvent,
  parseEdits,
  stripFence,
} from "@/lib/space/action-parser";
import {
  assistantInstructions,
  CONTINUE_INSTRUCTION,
  conversation,
  SPACE_ASSISTANT_MARKER,
} from "@/lib/space/assistant-prompt";
import { answerText, chatActionOf, fileChangeOf, mergeContinuation } from "@/lib/space/chat-actions";
import type { ChatPart } from "@/lib/space/chat-schemas";

// The chat assistant's answer read as it streams (lib/space/action-parser.ts): chunks cut anywhere,
// JSX inside actions, cut answers, garbage, continuations; and the chat actions made of it.

type Summary = {
  prose: string;
  actions: Pick<ParsedAction, "type" | "path" | "name" | "content" | "status">[];
};

/** Everything the events said, folded: the prose, and each action's content from its deltas. */
function fold(events: ParserEvent[]): Summary {
  let prose = "";
  const actions = new Map<ParsedAction, Summary["actions"][number]>();
  for (const e of events) {
    if (e.type === "text") prose += e.text;
    else if (e.type === "action-start") {
      actions.set(e.action, { ...pick(e.action), content: e.content, status: "streaming" });
    } else if (e.type === "action-delta") actions.get(e.action)!.content += e.delta;
    else actions.get(e.action)!.status = e.action.status;
  }
  return { prose, actions: [...actions.values()] };
}
const pick = (a: ParsedAction) => ({ type: a.type, path: a.path, name: a.name });

function parse(chunks: string[], opts: { discussMode?: boolean } = {}) {
  const p = new ActionParser(opts);
  const events = chunks.flatMap((c) => p.push(c));
  events.push(...p.finish());
  return { parser: p, events, ...fold(events) };
}

const JSX = `export default function Home() {
  const items = [1, 2].map((n) => <li key={n}>{n < 2 ? "one" : "two"}</li>);
  return (
    <main className="p-4">
      <h1>Hello & welcome</h1>
      <ul>{items}</ul>
    </main>
  );
}
`;

const ANSWER = `I'll add a home page.
<action type="add_file" path="pages/Home.jsx">
${JSX}</action>
Then a tweak:
<action type="partial_edit" path="pages/Home.jsx">
<find>
      <h1>Hello & welcome</h1>
</find>
<replace>
      <h1>Hi</h1>
</replace>
</action>
<action type="delete_file" path="pages/Old.jsx"/>
Done.`;

const EXPECTED: Summary = {
  prose: "I'll add a home page.\n\nThen a tweak:\n\n\nDone.",
  actions: [
    { type: "add_file", path: "pages/Home.jsx", name: null, content: JSX, status: "complete" },
    {
      type: "partial_edit",
      path: "pages/Home.jsx",
      name: null,
      content: "<find>\n      <h1>Hello & welcome</h1>\n</find>\n<replace>\n      <h1>Hi</h1>\n</replace>\n",
      status: "complete",
    },
    { type: "delete_file", path: "pages/Old.jsx", name: null, content: "", status: "complete" },
  ],
};

describe("ActionParser: prose and actions as they stream", () => {
  it("reads a whole answer: prose between actions, contents verbatim (one newline after the tag dropped)", () => {
    const r = parse([ANSWER]);
    expect({ prose: r.prose, actions: r.actions }).toEqual(EXPECTED);
    expect(r.parser.prose).toBe(EXPECTED.prose);
    expect(r.parser.actions.map((a) => a.index)).toEqual([0, 1, 2]);
    // Events come in the order written (the newline between two actions is prose too).
    const kinds = r.events.filter((e) => e.type !== "action-delta").map((e) => e.type);
    expect(kinds).toEqual([
      "text",
      "action-start",
      "action-end",
      "text",
      "action-start",
      "action-end",
      "text",
      "action-start",
      "action-end",
      "text",
    ]);
  });

  it("gives the same result however the stream is cut: at every position into two chunks", () => {
    for (let i = 1; i < ANSWER.length; i++) {
      const r = parse([ANSWER.slice(0, i), ANSWER.slice(i)]);
      expect({ prose: r.prose, actions: r.actions }, `cut at ${i}`).toEqual(EXPECTED);
    }
  });

  it("gives the same result one character at a time, and in chunks of 3 and 7", () => {
    for (const size of [1, 3, 7]) {
      const chunks = ANSWER.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
      const r = parse(chunks);
      expect({ prose: r.prose, actions: r.actions }, `chunks of ${size}`).toEqual(EXPECTED);
    }
  });

  it("never reports an action's content before it is sure the text is not its closing tag", () => {
    const p = new ActionParser();
    p.push('<action type="add_file" path="a.jsx">\nabc</act');
    expect(p.actions[0]!.content).toBe("abc");
    p.push("ive>"); // "</active>" is content, not the closing tag
    expect(p.actions[0]!.content).toBe("abc</active>");
    p.push("</action>");
    expect(p.actions[0]!.status).toBe("complete");
  });

  it("keeps an action's own angle brackets, a literal <action inside it, and Windows newlines", () => {
    const body = 'const s = "<action type=\\"x\\">";\r\nreturn <A><B/></A>;\r\n';
    const r = parse([`<action type="add_file" path="a.jsx">\r\n${body}</action>`]);
    expect(r.actions).toEqual([
      { type: "add_file", path: "a.jsx", name: null, content: body, status: "complete" },
    ]);
    expect(r.prose).toBe("");
  });

  it("an action still open at the end is truncated, with everything written so far (a held tail too)", () => {
    const r = parse(['Start.\n<action type="add_file" path="pages/Long.jsx">\nline 1\nline 2</act']);
    expect(r.actions).toEqual([
      {
        type: "add_file",
        path: "pages/Long.jsx",
        name: null,
        content: "line 1\nline 2</act",
        status: "truncated",
      },
    ]);
    expect(r.parser.prose).toBe("Start.\n");
    expect(r.parser.open).toBeNull();
  });

  it("reports the open action while it streams", () => {
    const p = new ActionParser();
    p.push('<action type="edit_file" path="x.css">\nbody{}');
    expect(p.open).toMatchObject({ type: "edit_file", content: "body{}", status: "streaming" });
  });

  it("takes tags that are not actions as prose", () => {
    const cases = [
      "a <action> b",
      'a <action type="nope" path="x">b</action>',
      'a <action type="add_file">no path</action>',
      'a <action type="add_entity">no name</action>',
      "a <actions are cool> b",
      "a <action",
      'a <action type="add_file" path="x"',
      "x < y and y <act",
      "<action <b>",
    ];
    for (const text of cases) {
      for (const chunks of [[text], text.split("")]) {
        const r = parse(chunks);
        expect(r.actions, text).toEqual([]);
        expect(r.prose, text).toBe(text);
      }
    }
  });

  it("gives up on an opening tag with no end within HEADER_MAX characters", () => {
    const text = `<action type="add_file" path="${"x".repeat(HEADER_MAX + 10)}`;
    const p = new ActionParser();
    const events = [...p.push(text)];
    // Not held until the end: the text is prose as soon as it is too long to be a tag.
    expect(fold(events).prose.length).toBeGreaterThan(HEADER_MAX);
    events.push(...p.finish());
    expect(fold(events)).toEqual({ prose: text, actions: [] });
  });

  it("reads attributes in any order and quoting, with escaped characters and a > inside quotes", () => {
    const r = parse([
      '<action name=\'Task\' title="Add a &quot;Task&quot; > entity" type=\'add_entity\'>{"type":"object"}</action>',
    ]);
    expect(r.actions).toEqual([
      { type: "add_entity", path: null, name: "Task", content: '{"type":"object"}', status: "complete" },
    ]);
    expect(r.parser.actions[0]!.title).toBe('Add a "Task" > entity');
  });

  it("discuss mode: actions are neither reported nor shown as prose", () => {
    const r = parse(ANSWER.split(""), { discussMode: true });
    expect(r.actions).toEqual([]);
    expect(r.parser.actions).toEqual([]);
    expect(r.prose).toBe(EXPECTED.prose);
  });
});

describe("ActionParser.resume: 'Let's keep going'", () => {
  const start = (previous: string, rest: string[]) => {
    const p = ActionParser.resume(previous);
    const events = rest.flatMap((c) => p.push(c));
    events.push(...p.finish());
    return { parser: p, ...fold(events) };
  };

  it("continues the cut action: its content is the concatenation, reported as one resumed action", () => {
    const previous = 'Intro.\n<action type="add_file" path="a.jsx">\nline 1\nli';
    for (const rest of [["ne 2\n</action>\nDone."], "ne 2\n</action>\nDone.".split("")]) {
      const r = start(previous, rest);
      expect(r.actions).toEqual([
        { type: "add_file", path: "a.jsx", name: null, content: "line 1\nline 2\n", status: "complete" },
      ]);
      expect(r.parser.actions[0]).toMatchObject({ index: 0, resumed: true });
      expect(r.prose).toBe("\nDone.");
    }
  });

  it("continues when the cut fell inside the closing tag, right after the opening tag, or inside it", () => {
    expect(start('<action type="add_file" path="a">\nabc</act', ["ion>"]).actions[0]).toMatchObject({
      content: "abc",
      status: "complete",
    });
    expect(start('<action type="add_file" path="a">', ["\nabc</action>"]).actions[0]).toMatchObject({
      content: "abc",
      status: "complete",
    });
    const inHeader = start('Intro <action type="add_fi', ['le" path="b.jsx">\nx</action>']);
    expect(inHeader.actions).toEqual([
      { type: "add_file", path: "b.jsx", name: null, content: "x", status: "complete" },
    ]);
    expect(inHeader.parser.actions[0]!.resumed).toBe(false);
  });

  it("a continuation that starts the action over replaces the cut one", () => {
    const r = start('<action type="add_file" path="a.jsx">\nhalf', [
      "  \n<act",
      'ion type="add_file" path="a.jsx">\nwhole\n</action>',
    ]);
    expect(r.actions).toEqual([
      { type: "add_file", path: "a.jsx", name: null, content: "whole\n", status: "complete" },
    ]);
    expect(r.parser.actions).toHaveLength(1);
    expect(r.parser.actions[0]!.resumed).toBe(false);
  });

  it("content that merely starts with < or whitespace is a continuation, not a new start", () => {
    const r = start('<action type="add_file" path="a.jsx">\n<main>', ["  \n  <h1>x</h1></main>\n</action>"]);
    expect(r.actions[0]).toMatchObject({ content: "<main>  \n  <h1>x</h1></main>\n", status: "complete" });
  });

  it("a continuation cut again stays truncated, with everything so far", () => {
    const r = start('<action type="add_file" path="a.jsx">\none ', ["two "]);
    expect(r.actions[0]).toMatchObject({ content: "one two ", status: "truncated" });
  });

  it("an answer cut in prose continues as prose", () => {
    const r = start("I will now", [" add it."]);
    expect(r).toMatchObject({ prose: " add it.", actions: [] });
  });
});

describe("edits and fences", () => {
  it("parses several find/replace pairs, one newline at each tag belonging to the tag", () => {
    expect(
      parseEdits("<find>\na\n</find>\n<replace>\nb\n</replace>\n<find>c</find><replace></replace>"),
    ).toEqual([
      { find: "a", replace: "b" },
      { find: "c", replace: "" },
    ]);
    expect(parseEdits("no edits here")).toEqual([]);
  });

  it("removes a code fence around a whole file, and nothing else", () => {
    expect(stripFence("```jsx\nconst a = 1;\n```\n")).toBe("const a = 1;\n");
    expect(stripFence("const a = 1;\n```\n")).toBe("const a = 1;\n```\n");
  });
});

describe("chat actions", () => {
  const parsed = (over: Partial<ParsedAction>): ParsedAction => ({
    index: 0,
    type: "add_file",
    path: "pages/A.jsx",
    name: null,
    title: null,
    content: "",
    status: "complete",
    resumed: false,
    ...over,
  });

  it("turns complete actions into changes, and stores the others only", () => {
    const file = chatActionOf("m", parsed({ content: "```jsx\nx\n```" }));
    expect(file).toMatchObject({
      id: "m:0",
      title: "Creating pages/A.jsx",
      isComplete: true,
      content: "x\n",
    });
    expect(fileChangeOf(file)).toEqual({ type: "add_file", path: "pages/A.jsx", content: "x\n" });

    const edit = chatActionOf(
      "m",
      parsed({ type: "partial_edit", content: "<find>\na\n</find><replace>\nb\n</replace>" }),
    );
    expect(fileChangeOf(edit)).toEqual({
      type: "partial_edit",
      path: "pages/A.jsx",
      edits: [{ find: "a", replace: "b" }],
    });

    const entity = chatActionOf(
      "m",
      parsed({
        type: "add_entity",
        path: null,
        name: "Task",
        content: '{"type":"object","x-accessControl":{"permissions":{"read":"all","write":"creator"}}}',
      }),
    );
    expect(entity).toMatchObject({
      file: "entities/Task.json",
      permissions: { read: "all", write: "creator" },
    });
    expect(fileChangeOf(entity)).toMatchObject({ type: "add_entity", name: "Task" });

    const secrets = chatActionOf(
      "m",
      parsed({
        type: "request_secrets",
        path: null,
        content: '{"secrets":[{"secretName":"K","description":"d"}]}',
      }),
    );
    expect(secrets).toMatchObject({
      file: null,
      title: "Requesting secrets",
      data: { secrets: [{ secretName: "K" }] },
    });
    expect(fileChangeOf(secrets)).toBeNull();

    const cut = chatActionOf("m", parsed({ status: "truncated", content: "half" }));
    expect(cut).toMatchObject({ isTruncated: true, isComplete: false });
    expect(fileChangeOf(cut)).toBeNull();
  });

  it("refuses a partial edit that names no part to replace", () => {
    const edit = chatActionOf("m", parsed({ type: "partial_edit", content: "just text" }));
    expect(() => fileChangeOf(edit)).toThrow(AppError);
  });

  /** Parts as the chat stream stores them, from an answer. */
  function partsOf(messageId: string, text: string, resumedFrom?: { messageId: string; actionId: string }) {
    const p = new ActionParser();
    const events = [...p.push(text), ...p.finish()];
    const parts: ChatPart[] = [];
    for (const e of events) {
      if (e.type === "text") {
        const last = parts.at(-1);
        if (last?.type === "text") last.text += e.text;
        else parts.push({ type: "text", text: e.text });
      } else if (e.type === "action-end") {
        parts.push({
          type: "data-action",
          id: `${messageId}:${e.action.index}`,
          data: chatActionOf(messageId, e.action, {
            resumedFrom: e.action.resumed ? resumedFrom : undefined,
          }),
        });
      }
    }
    return parts;
  }

  it("writes an answer back so the parser reads the same actions (the continuation's starting point)", () => {
    const cut = `${ANSWER.slice(0, ANSWER.indexOf("</action>") - 20)}`;
    const parts = partsOf("m1", cut);
    const text = answerText(parts, "full");
    const again = ActionParser.resume(text);
    const events = [...again.push(ANSWER.slice(ANSWER.indexOf("</action>") - 20)), ...again.finish()];
    const r = fold(events);
    expect(r.actions[0]).toMatchObject({ type: "add_file", content: JSX, status: "complete" });
    expect(r.actions.slice(1).map((a) => a.type)).toEqual(["partial_edit", "delete_file"]);
  });

  it("summarises earlier answers in one line per action", () => {
    const text = answerText(partsOf("m", ANSWER), "summary");
    expect(text).toContain("[add_file pages/Home.jsx: complete]");
    expect(text).not.toContain("export default");
  });

  it("merges a cut answer and its continuations: the resumed action replaces the cut one", () => {
    const first = partsOf("m1", 'A\n<action type="add_file" path="a">\none ');
    const second = partsOf("m2", "two ", { messageId: "m1", actionId: "m1:0" });
    // m2 was parsed alone here; as the service would, it resumed m1's action: mark it so.
    const resumed: ChatPart[] = [
      {
        type: "data-action",
        id: "m2:0",
        data: {
          ...(first[1] as Extract<ChatPart, { type: "data-action" }>).data,
          id: "m2:0",
          content: "one two ",
          resumedFrom: { messageId: "m1", actionId: "m1:0" },
        },
      },
    ];
    expect(second).toEqual([{ type: "text", text: "two " }]);
    const merged = mergeContinuation([first, resumed]);
    expect(merged.map((p) => (p.type === "text" ? p.text : p.data.id))).toEqual(["A\n", "m2:0"]);
    expect(answerText(merged, "full")).toBe('A\n<action type="add_file" path="a">\none two ');

    // Started over instead: the cut action is dropped, the new one stays.
    const fresh = partsOf("m2", '<action type="add_file" path="a">\nnew</action>');
    expect(mergeContinuation([first, fresh]).map((p) => (p.type === "text" ? p.text : p.data.id))).toEqual([
      "A\n",
      "m2:0",
    ]);
  });
});

describe("the assistant's prompt", () => {
  it("starts with the marker, shows files within the budget, lists the rest, and says discuss mode", () => {
    const files = [
      { path: "pages/Home.jsx", content: "home" },
      { path: "entities/Task.json", content: "{}" },
      { path: "components/Big.jsx", content: "x".repeat(500) },
    ];
    const text = assistantInstructions({ appName: "Wiki", files, discussMode: true, filesBudget: 100 });
    expect(text.startsWith(SPACE_ASSISTANT_MARKER)).toBe(true);
    expect(text).toContain('<file path="pages/Home.jsx">\nhome\n</file>');
    expect(text).toContain("- components/Big.jsx (500 characters, not shown)");
    expect(text).toContain("## Entities\n\nTask");
    expect(text).toContain("DISCUSS MODE");
    // The data client of the app's code, as the preview and published builds bundle it.
    expect(text).toContain('import { entities, auth, AppClientError } from "@app/client";');
    for (const call of [
      "list({",
      "get(id)",
      "create(data)",
      "update(id, patch)",
      "delete(id)",
      "bulkCreate(",
    ]) {
      expect(text).toContain(call);
    }
    for (const call of ["auth.me()", "auth.signIn()", "auth.signOut()", "status, code, message and field"]) {
      expect(text).toContain(call);
    }
    expect(text).toContain("{ id, creatorId, createdAt, updatedAt, ...fields }");
    expect(text).toContain("newest first");
    expect(text).toMatch(/anonymous[\s\S]*all[\s\S]*admin[\s\S]*creator[\s\S]*none/);
    expect(text).toContain("A list answers only the records the caller may read");
    expect(assistantInstructions({ appName: "Wiki", files: [], discussMode: false })).not.toContain(
      "DISCUSS MODE",
    );
  });

  it("makes turns alternate, starting with the user", () => {
    expect(
      conversation([
        { role: "assistant", content: "restored" },
        { role: "user", content: "a" },
        { role: "user", content: "b" },
        { role: "assistant", content: " " },
        { role: "assistant", content: "c" },
        { role: "user", content: CONTINUE_INSTRUCTION },
      ]),
    ).toEqual([
      { role: "user", content: "a\n\nb" },
      { role: "assistant", content: "c" },
      { role: "user", content: CONTINUE_INSTRUCTION },
    ]);
  });
});
