import { describe, expect, it } from "vitest";
import { answerEndAnnouncement, lastAnswerStatus, usageLine } from "@/components/space/chat/answer-status";
import { contextCoverageOf, contextFilesOf } from "@/components/space/chat/context-files-dialog";
import {
  actionStatus,
  canUndoRestore,
  countLaterMessages,
  currentVersionId,
  lastUserMessageId,
  prependPage,
  questionOf,
  segmentsOf,
  upsertMessages,
} from "@/components/space/chat/conversation";
import { fixRequest } from "@/components/space/chat/issues-panel";
import { initialIssues, issueKey, issuesReducer, visibleIssues } from "@/components/space/chat/issues-state";
import { liveView, refusalOf, type SpaceUIMessage } from "@/components/space/chat/live-message";
import { messages } from "@/lib/messages";
import { promptContext, selectPromptFiles } from "@/lib/space/assistant-prompt";
import type { PreviewIssue } from "@/lib/space/preview/types";
import type { ChatMessageView, MessageAnnotation } from "@/lib/space/views";

// The rules of the space app chat view that need no browser (components/space/chat): the
// current version, retry and undo eligibility, revert counts, pages of history, the order of
// prose and actions, the streamed answer read as a stored one, the issues panel's states, and
// the context files of an answer with the admin's counts.

let seq = 0;
function msg(
  role: "user" | "assistant",
  over: Partial<ChatMessageView> = {},
  ann: Partial<MessageAnnotation> = {},
): ChatMessageView {
  seq += 1;
  return {
    id: `m${seq}`,
    role,
    kind: "message",
    content: `message ${seq}`,
    parts: [],
    experimental_attachments: [],
    actions: [],
    error: null,
    createdAt: new Date(2026, 0, 1, 0, seq).toISOString(),
    ...over,
    annotations: [
      {
        versionId: null,
        versionNumber: null,
        status: "complete",
        usage: null,
        rating: null,
        contextFiles: null,
        contextMetadata: null,
        systemActionInfo: null,
        discussModeMetadata: { isDiscussMode: false },
        ...ann,
      },
    ],
  };
}

describe("conversation rules", () => {
  it("the current version is the last message's that made one", () => {
    const list = [msg("user"), msg("assistant", {}, { versionId: "v1" }), msg("user"), msg("assistant")];
    expect(currentVersionId(list)).toBe("v1");
    list.push(msg("assistant", { kind: "restore" }, { versionId: "v3" }));
    expect(currentVersionId(list)).toBe("v3");
    expect(currentVersionId([])).toBeNull();
  });

  it("a revert removes the messages after the one reverted to", () => {
    const list = [msg("user"), msg("assistant"), msg("user"), msg("assistant")];
    expect(countLaterMessages(list, list[1]!.id)).toBe(2);
    expect(countLaterMessages(list, list[3]!.id)).toBe(0);
    expect(countLaterMessages(list, "unknown")).toBe(0);
  });

  it("retry applies to the last user message only", () => {
    const u1 = msg("user");
    const a1 = msg("assistant", {}, { status: "failed" });
    const u2 = msg("user");
    const a2 = msg("assistant", {}, { status: "failed" });
    const list = [u1, a1, u2, a2];
    expect(lastUserMessageId(list)).toBe(u2.id);
    expect(questionOf(list, a2.id)).toBe(u2.id);
    // The earlier failure answers u1, which is not the last user message: 'You can only retry the last message.'
    expect(questionOf(list, a1.id)).toBe(u1.id);
  });

  it("a restore can be undone while its version is current and no undo of it exists", () => {
    const answer = msg("assistant", {}, { versionId: "v1" });
    const restore = msg(
      "assistant",
      { kind: "restore" },
      { versionId: "v2", systemActionInfo: { type: "restore", revertedFromMessageId: answer.id } },
    );
    const list = [msg("user"), answer, restore];
    expect(canUndoRestore(list, restore)).toBe(true);
    expect(canUndoRestore(list, answer)).toBe(false);
    const undo = msg(
      "assistant",
      { kind: "undo_restore" },
      { versionId: "v3", systemActionInfo: { type: "undo_restore", revertedFromMessageId: restore.id } },
    );
    expect(canUndoRestore([...list, undo], restore)).toBe(false);
    // Changed after the restore: stale, the server would refuse (RESTORE_STALE).
    expect(canUndoRestore([...list, msg("user"), msg("assistant", {}, { versionId: "v4" })], restore)).toBe(
      false,
    );
  });

  it("joins pages without repeating a message and replaces known ones in place", () => {
    const [a, b, c] = [msg("user"), msg("assistant"), msg("user")];
    expect(prependPage([b, c], [a, b]).map((m) => m.id)).toEqual([a.id, b.id, c.id]);
    const b2 = { ...b, content: "rated" };
    const d = msg("assistant");
    expect(upsertMessages([a, b, c], [b2, d]).map((m) => m.content)).toEqual([
      a.content,
      "rated",
      c.content,
      d.content,
    ]);
  });

  it("shows prose and actions in the order written, or text then actions for messages stored without parts", () => {
    const action = { id: "x:0", type: "add_file", title: "Creating a", file: "a", content: "1" };
    const streamed = msg("assistant", {
      parts: [
        { type: "text", text: "First" },
        { type: "data-action", id: "x:0", data: action },
        { type: "text", text: "  " },
        { type: "text", text: "Then" },
      ],
    });
    expect(segmentsOf(streamed).map((s) => (s.kind === "text" ? s.text : s.action.file))).toEqual([
      "First",
      "a",
      "Then",
    ]);
    const seeded = msg("assistant", {
      content: "Done",
      actions: [{ type: "delete_file", file: "b" }, "junk"],
    });
    expect(segmentsOf(seeded).map((s) => (s.kind === "text" ? s.text : s.action.type))).toEqual([
      "Done",
      "delete_file",
    ]);
  });

  it("an action still open when its answer ended is incomplete", () => {
    expect(actionStatus({ type: "add_file", status: "streaming" }, true)).toBe("streaming");
    expect(actionStatus({ type: "add_file", status: "streaming" }, false)).toBe("incomplete");
    expect(actionStatus({ type: "add_file", isComplete: true }, false)).toBe("complete");
    expect(actionStatus({ type: "add_file", isTruncated: true }, false)).toBe("truncated");
  });
});

describe("the streamed answer", () => {
  it("reads as the stored message it becomes", () => {
    const action = {
      id: "srv-a:0",
      type: "add_file" as const,
      title: "Creating pages/Home.jsx",
      file: "pages/Home.jsx",
      name: null,
      content: "x",
      status: "complete" as const,
      isComplete: true,
      isTruncated: false,
      applied: true,
    };
    const answer: SpaceUIMessage = {
      id: "client-1",
      role: "assistant",
      metadata: {
        messageId: "srv-a",
        userMessageId: "srv-u",
        removedMessageIds: [],
        status: "complete",
        versionId: "v9",
        discussMode: false,
      },
      parts: [
        { type: "text", text: "Here." },
        { type: "data-action", id: "srv-a:0", data: action },
      ],
    };
    const view = liveView(answer, answer.metadata, "2026-01-01T00:00:00.000Z");
    expect(view.id).toBe("srv-a");
    expect(view.content).toBe("Here.");
    expect(view.actions).toEqual([action]);
    expect(view.annotations[0]).toMatchObject({ versionId: "v9", versionNumber: null, status: "complete" });
    // The stream's data-version names the version's number too, for "Version N".
    const withVersion: SpaceUIMessage = {
      ...answer,
      parts: [...answer.parts, { type: "data-version", id: "v9", data: { id: "v9", number: 4 } }],
    };
    expect(liveView(withVersion, answer.metadata, "").annotations[0]).toMatchObject({
      versionId: "v9",
      versionNumber: 4,
    });
    const question: SpaceUIMessage = { id: "client-0", role: "user", parts: [{ type: "text", text: "Hi" }] };
    expect(liveView(question, answer.metadata, "").id).toBe("srv-u");
  });

  it("reads the route's refusal from a failed request", () => {
    const err = { responseBody: JSON.stringify({ error: { code: "CHAT_BUSY", message: "Wait" } }) };
    expect(refusalOf(err)).toEqual({ code: "CHAT_BUSY", message: "Wait" });
    expect(
      refusalOf({
        responseBody: JSON.stringify({
          error: { code: "MODEL_LIMIT_REACHED", message: "Spent" },
          upgradeReason: "modelCalls",
        }),
      }),
    ).toEqual({ code: "MODEL_LIMIT_REACHED", message: "Spent", upgradeReason: "modelCalls" });
    expect(refusalOf({ responseBody: "<html>" })).toBeNull();
    expect(refusalOf(new Error("network"))).toBeNull();
  });
});

describe("issues panel", () => {
  const issue = (title: string): PreviewIssue => ({
    title,
    details: "",
    componentName: "Home",
    source: "runtime",
  });

  it("auto-expands when the error count changes", () => {
    let s = issuesReducer(initialIssues, { type: "issues", issues: [issue("a")] });
    expect(s.expanded).toBe(true);
    s = issuesReducer(s, { type: "toggle" });
    expect(s.expanded).toBe(false);
    // The same count again: stays minimized.
    s = issuesReducer(s, { type: "issues", issues: [issue("b")] });
    expect(s.expanded).toBe(false);
    s = issuesReducer(s, { type: "issues", issues: [issue("b"), issue("c")] });
    expect(s.expanded).toBe(true);
  });

  it("minimizes when the last issue is suppressed, and keeps it hidden while it is reported", () => {
    let s = issuesReducer(initialIssues, { type: "issues", issues: [issue("a"), issue("b")] });
    s = issuesReducer(s, { type: "suppress", key: issueKey(issue("a")) });
    expect(s.expanded).toBe(true);
    s = issuesReducer(s, { type: "suppress", key: issueKey(issue("b")) });
    expect(s.expanded).toBe(false);
    expect(visibleIssues(s)).toEqual([]);
    expect(s.fixed).toBe(false);
    s = issuesReducer(s, { type: "issues", issues: [issue("a"), issue("b")] });
    expect(visibleIssues(s)).toEqual([]);
  });

  it("clears after a fix: shown as fixed until settled, then minimized with dismissals forgotten", () => {
    let s = issuesReducer(initialIssues, { type: "issues", issues: [issue("a"), issue("b")] });
    s = issuesReducer(s, { type: "suppress", key: issueKey(issue("a")) });
    s = issuesReducer(s, { type: "issues", issues: [] });
    expect(s.fixed).toBe(true);
    s = issuesReducer(s, { type: "settle" });
    expect(s).toMatchObject({ fixed: false, expanded: false, suppressed: [] });
    // A new error after the fix expands again.
    s = issuesReducer(s, { type: "issues", issues: [issue("a")] });
    expect(s.expanded).toBe(true);
  });

  it("a new issue during the minimize delay cancels the fix", () => {
    let s = issuesReducer(initialIssues, { type: "issues", issues: [issue("a")] });
    s = issuesReducer(s, { type: "issues", issues: [] });
    s = issuesReducer(s, { type: "issues", issues: [issue("c")] });
    expect(s.fixed).toBe(false);
    expect(issuesReducer(s, { type: "settle" })).toBe(s);
  });
});

describe("context files of an answer, with the admin's counts and missing files", () => {
  const files = [
    { path: "pages/Home.jsx", content: "x".repeat(40) },
    { path: "components/Big.jsx", content: "y".repeat(90) },
    { path: "entities/Task.json", content: "z".repeat(30) },
  ];

  it("records the files shown in full, every file of the app, and those left out over the budget", () => {
    const context = promptContext(selectPromptFiles(files, 100));
    // Entities first, then pages: what fits the 100 characters; the rest only named.
    expect(context.contextFiles).toEqual(["entities/Task.json", "pages/Home.jsx"]);
    expect(context.contextMetadata.relevantFiles).toEqual([
      "components/Big.jsx",
      "entities/Task.json",
      "pages/Home.jsx",
    ]);
    expect(context.contextMetadata.belowThresholdFiles).toEqual([
      { filename: "components/Big.jsx", tokenEstimation: 23 },
    ]);
    expect(context.contextMetadata.retrievedFiles.map((f) => f.tokenEstimation)).toEqual([8, 10]);
  });

  it("reads as n of m files in the prompt with the missing ones; none for an answer recorded without them", () => {
    const recorded = promptContext(selectPromptFiles(files, 100));
    const answer = msg("assistant", {}, recorded);
    expect(contextFilesOf(answer)?.map((f) => [f.filePath, f.tokenEstimation])).toEqual([
      ["entities/Task.json", 8],
      ["pages/Home.jsx", 10],
    ]);
    expect(contextCoverageOf(answer)).toEqual({
      inPrompt: 2,
      total: 3,
      missing: [{ filePath: "components/Big.jsx", tokenEstimation: 23 }],
    });
    // Everything fits: nothing missing.
    const all = msg("assistant", {}, promptContext(selectPromptFiles(files, 1000)));
    expect(contextCoverageOf(all)).toEqual({ inPrompt: 3, total: 3, missing: [] });
    // An answer recorded before relevantFiles existed: its list, but no count to give.
    const older = msg(
      "assistant",
      {},
      { contextFiles: ["pages/Home.jsx"], contextMetadata: { retrievedFiles: [] } },
    );
    expect(contextFilesOf(older)).toHaveLength(1);
    expect(contextCoverageOf(older)).toBeNull();
    // No record at all (a user message, an answer refused before the model).
    expect(contextCoverageOf(msg("assistant"))).toBeNull();
  });
});

describe("fixRequest", () => {
  it("hands the issue to the composer without the preview address's signed query", () => {
    const issue: PreviewIssue = {
      title: "TypeError: x is undefined",
      details:
        "at Chart (https://app.example.com/api/apps/a/versions/v/preview/document?token=SECRET.sig:12:5)\nat https://cdn.example.com/react.js:1:1",
      componentName: "Chart",
      source: "runtime",
    };
    const text = fixRequest(issue);
    expect(text).toContain("TypeError: x is undefined");
    expect(text).toContain("https://app.example.com/api/apps/a/versions/v/preview/document");
    expect(text).toContain("https://cdn.example.com/react.js:1:1");
    expect(text).not.toContain("token=");
    expect(text).not.toContain("SECRET");
  });
});

describe("how an ended answer is told: the admins' usage line and the status announced", () => {
  const counted = {
    promptTokens: 1200,
    completionTokens: 300,
    totalTokens: 1500,
    totalCost: 0.00036,
    costKnown: true,
    modelInfo: { model: "gpt-4o-mini" },
    finishReason: "stop",
  };
  // What a failed or stopped answer stores: the model never reported its usage.
  const uncounted = {
    promptTokens: null,
    completionTokens: null,
    totalTokens: null,
    totalCost: 0,
    costKnown: true,
    modelInfo: { model: "gpt-4o-mini" },
    finishReason: null,
  };

  it("gives the token line of an answer the model counted", () => {
    const line = usageLine(msg("assistant", {}, { usage: counted }));
    expect(line).toBe(
      `${(1500).toLocaleString()} tokens (${(1200).toLocaleString()} in, 300 out) · $0.0004 · gpt-4o-mini · stop`,
    );
  });

  it("gives no line of question marks for a failed or stopped answer", () => {
    expect(usageLine(msg("assistant", {}, { status: "failed", usage: uncounted }))).toBeNull();
    expect(usageLine(msg("assistant", {}, { status: "incomplete", usage: uncounted }))).toBeNull();
    // Even counted, a failed answer's line would sit under an error: none.
    expect(usageLine(msg("assistant", {}, { status: "failed", usage: counted }))).toBeNull();
    expect(usageLine(msg("assistant", {}, { usage: null }))).toBeNull();
    // A stopped answer the model did count keeps its line, without an unknown finish reason.
    const stopped = usageLine(
      msg("assistant", {}, { status: "incomplete", usage: { ...counted, finishReason: null } }),
    );
    expect(stopped).not.toContain("?");
    expect(stopped).toMatch(/ · gpt-4o-mini$/);
  });

  it("announces how the answer ended", () => {
    expect(answerEndAnnouncement("complete", false)).toBe(messages.chatAnswerDone);
    expect(answerEndAnnouncement("failed", false)).toBe(messages.chatAnswerFailedAnnounce);
    expect(answerEndAnnouncement("failed", true)).toBe(messages.chatAnswerFailedAnnounce);
    expect(answerEndAnnouncement("incomplete", false)).toBe(messages.chatAnswerStoppedAnnounce);
    // Stop pressed: stopped, whatever the stored copy says yet.
    expect(answerEndAnnouncement("streaming", true)).toBe(messages.chatAnswerStoppedAnnounce);
    expect(answerEndAnnouncement("truncated", false)).toBe(messages.chatTruncatedNote);
    const failed = msg("assistant", {}, { status: "failed" });
    expect(lastAnswerStatus([msg("user"), msg("assistant"), msg("user"), failed])).toBe("failed");
    expect(lastAnswerStatus([msg("user")])).toBeNull();
  });
});
