import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  conflictingKeys,
  mergePatch,
  RecordSaver,
  retryDelay,
  type SaveOutcome,
  sameValue,
} from "@/components/editor/save-engine";
import { APP_SAVE_DEBOUNCE_MS, APP_SAVE_RETRY_MAX_MS, APP_SAVE_RETRY_MS } from "@/lib/constants";

type Doc = { header: string; description: string; examples: string[] };
const base: Doc = { header: "Hello", description: "", examples: [] };

/** A server held in memory: applies saves at a revision, like the real routes. */
function fakeServer(start: Doc = base) {
  const state = { revision: 1, value: { ...start } };
  const calls: { patch: Partial<Doc>; baseRevision: number }[] = [];
  let answer: ((patch: Partial<Doc>, baseRevision: number) => SaveOutcome<Doc> | null) | null = null;
  let hold: Promise<void> | null = null;
  const send = async (patch: Partial<Doc>, baseRevision: number): Promise<SaveOutcome<Doc>> => {
    calls.push({ patch, baseRevision });
    if (hold) await hold;
    const forced = answer?.(patch, baseRevision);
    if (forced) return forced;
    if (baseRevision !== state.revision) {
      return {
        ok: false,
        kind: "conflict",
        current: { revision: state.revision, value: { ...state.value } },
      };
    }
    state.value = { ...state.value, ...patch };
    state.revision += 1;
    return { ok: true, revision: state.revision, value: { ...state.value } };
  };
  return {
    state,
    calls,
    send,
    /** Answer the next saves with this (null: behave normally). */
    answerWith(fn: typeof answer) {
      answer = fn;
    },
    /** Keep requests in flight until the returned function is called. */
    holdRequests() {
      let release = () => {};
      hold = new Promise<void>((r) => {
        release = () => {
          hold = null;
          r();
        };
      });
      return release;
    },
  };
}

function makeSaver(server: ReturnType<typeof fakeServer>) {
  return new RecordSaver<Doc>({
    revision: server.state.revision,
    value: { ...server.state.value },
    send: server.send,
    failureMessage: "Failed to save app",
  });
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("helpers", () => {
  it("compares JSON values deeply, ignoring key order", () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue({ a: undefined }, {})).toBe(true);
    expect(sameValue(null, {})).toBe(false);
  });

  it("merges patches key by key, later winning", () => {
    expect(mergePatch<Doc>({ header: "a", description: "x" }, { header: "b" })).toEqual({
      header: "b",
      description: "x",
    });
  });

  it("backs off from the first delay, doubling up to the maximum", () => {
    expect(retryDelay(1)).toBe(APP_SAVE_RETRY_MS);
    expect(retryDelay(2)).toBe(APP_SAVE_RETRY_MS * 2);
    expect(retryDelay(3)).toBe(APP_SAVE_RETRY_MS * 4);
    expect(retryDelay(50)).toBe(APP_SAVE_RETRY_MAX_MS);
  });

  it("names the edited keys that differ from theirs", () => {
    expect(conflictingKeys<Doc>({ header: "mine", description: "" }, { ...base, header: "theirs" })).toEqual([
      "header",
    ]);
  });
});

describe("RecordSaver", () => {
  it("saves the merged edits once, 2000 ms after the last one, at the revision it has", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    saver.edit({ header: "H" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS - 500);
    saver.edit({ header: "He", description: "d" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS - 1);
    expect(server.calls).toHaveLength(0);
    expect(saver.getSnapshot()).toMatchObject({
      dirty: true,
      saving: false,
      value: { header: "He", description: "d" },
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toEqual([{ patch: { header: "He", description: "d" }, baseRevision: 1 }]);
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, revision: 2, error: null });
  });

  it("drops an edit that returns to the saved value", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    saver.edit({ header: "X" });
    saver.edit({ header: "Hello" });
    expect(saver.getSnapshot().dirty).toBe(false);
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS * 2);
    expect(server.calls).toHaveLength(0);
  });

  it("keeps one request in flight; edits made meanwhile go after it on the new revision", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    const release = server.holdRequests();
    saver.edit({ header: "one" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(saver.getSnapshot().saving).toBe(true);
    saver.edit({ description: "two" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS * 3);
    expect(server.calls).toHaveLength(1);
    expect(saver.getSnapshot().value).toMatchObject({ header: "one", description: "two" });
    release();
    await vi.advanceTimersByTimeAsync(0);
    // The debounce of the second edit has long passed: it goes at once, on revision 2.
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls[1]).toEqual({ patch: { description: "two" }, baseRevision: 2 });
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, revision: 3 });
    expect(server.state.value).toMatchObject({ header: "one", description: "two" });
  });

  it("sends nothing more when the edits made in flight equal what was saved", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    const release = server.holdRequests();
    saver.edit({ header: "one" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    saver.edit({ header: "two" });
    saver.edit({ header: "one" });
    release();
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS * 2);
    expect(server.calls).toHaveLength(1);
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, value: { header: "one" } });
  });

  it("keeps a failed save, says so, and retries with a doubling backoff until it succeeds", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.answerWith(() => ({ ok: false, kind: "transient" }));
    saver.edit({ header: "kept" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(server.calls).toHaveLength(1);
    expect(saver.getSnapshot()).toMatchObject({
      dirty: true,
      saving: false,
      error: { kind: "transient", message: "Failed to save app" },
      value: { header: "kept" },
    });
    await vi.advanceTimersByTimeAsync(APP_SAVE_RETRY_MS - 1);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(APP_SAVE_RETRY_MS * 2 - 1);
    expect(server.calls).toHaveLength(2);
    server.answerWith(null);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(3);
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, error: null });
    expect(server.state.value.header).toBe("kept");
  });

  it("retries at once on retryNow (the browser is back online)", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.answerWith(() => ({ ok: false, kind: "transient" }));
    saver.edit({ header: "kept" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    server.answerWith(null);
    saver.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toHaveLength(2);
    expect(saver.getSnapshot().dirty).toBe(false);
  });

  it("keeps an edit the server refuses by rule and waits for the builder to change it", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.answerWith((patch) =>
      patch.header === "bad" ? { ok: false, kind: "rule", message: "No." } : null,
    );
    saver.edit({ header: "bad" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(saver.getSnapshot()).toMatchObject({ dirty: true, error: { kind: "rule", message: "No." } });
    await vi.advanceTimersByTimeAsync(APP_SAVE_RETRY_MAX_MS * 4);
    expect(server.calls).toHaveLength(1);
    saver.edit({ header: "good" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(server.calls).toHaveLength(2);
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, error: null, value: { header: "good" } });
  });

  it("revert drops a refused edit and sends the others", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.answerWith((patch) =>
      patch.header === "bad" ? { ok: false, kind: "rule", message: "No." } : null,
    );
    saver.edit({ header: "bad", description: "fine" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    saver.revert(["header"]);
    expect(saver.getSnapshot().error).toBeNull();
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(server.calls[1]).toEqual({ patch: { description: "fine" }, baseRevision: 1 });
    expect(saver.getSnapshot()).toMatchObject({
      dirty: false,
      value: { header: "Hello", description: "fine" },
    });
  });

  it("on a 409 holds everything, shows both versions, and keeps mine on top of theirs", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    // Another tab saves first.
    server.state.value = { ...server.state.value, header: "theirs", description: "their description" };
    server.state.revision = 2;
    saver.edit({ header: "mine" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    const snap = saver.getSnapshot();
    expect(snap.conflict).toMatchObject({ theirRevision: 2, keys: ["header"], mine: { header: "mine" } });
    expect(snap.conflict?.theirs.header).toBe("theirs");
    expect(snap.value.header).toBe("mine");
    // Nothing is sent while the builder has not chosen, edits included.
    saver.edit({ examples: ["e"] });
    await vi.advanceTimersByTimeAsync(APP_SAVE_RETRY_MAX_MS);
    expect(server.calls).toHaveLength(1);
    expect(await saver.flush()).toBe(false);
    saver.resolveConflict("mine");
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls[1]).toEqual({ patch: { header: "mine", examples: ["e"] }, baseRevision: 2 });
    // Their other change is kept: only my edits went on top.
    expect(server.state.value).toEqual({ header: "mine", description: "their description", examples: ["e"] });
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, conflict: null, revision: 3 });
  });

  it("on a 409, load theirs drops my edits and takes their version and revision", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.state.value = { ...server.state.value, header: "theirs" };
    server.state.revision = 5;
    saver.edit({ header: "mine" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    saver.resolveConflict("theirs");
    expect(saver.getSnapshot()).toMatchObject({
      dirty: false,
      conflict: null,
      revision: 5,
      value: { header: "theirs" },
    });
    saver.edit({ description: "next" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(server.calls[1]).toEqual({ patch: { description: "next" }, baseRevision: 5 });
  });

  it("a 409 where they saved exactly my edit needs no choice", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.state.value = { ...server.state.value, header: "same" };
    server.state.revision = 3;
    saver.edit({ header: "same" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(saver.getSnapshot()).toMatchObject({ dirty: false, conflict: null, revision: 3 });
  });

  it("flush saves at once and resolves when everything is saved, edits made in flight included", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    const release = server.holdRequests();
    saver.edit({ header: "a" });
    const done = saver.flush();
    let result: boolean | undefined;
    void done.then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toHaveLength(1);
    saver.edit({ description: "b" });
    release();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toHaveLength(2);
    expect(result).toBe(true);
    expect(await saver.flush()).toBe(true);
  });

  it("flush resolves false when the save fails, and the edits stay", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    server.answerWith(() => ({ ok: false, kind: "transient", message: "Server said no" }));
    saver.edit({ header: "a" });
    const done = saver.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(await done).toBe(false);
    expect(saver.getSnapshot()).toMatchObject({ dirty: true, error: { message: "Server said no" } });
  });

  it("a request that throws counts as a transient failure", async () => {
    const saver = new RecordSaver<Doc>({
      revision: 1,
      value: base,
      send: () => Promise.reject(new TypeError("Failed to fetch")),
      failureMessage: "Failed to save tool",
    });
    saver.edit({ header: "x" });
    await vi.advanceTimersByTimeAsync(APP_SAVE_DEBOUNCE_MS);
    expect(saver.getSnapshot().error).toEqual({ kind: "transient", message: "Failed to save tool" });
  });

  it("stop sends edits still waiting for their debounce", async () => {
    const server = fakeServer();
    const saver = makeSaver(server);
    saver.edit({ header: "last words" });
    saver.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toEqual([{ patch: { header: "last words" }, baseRevision: 1 }]);
  });
});
