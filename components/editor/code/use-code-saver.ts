"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { CODE_SAVE_DEBOUNCE_MS, CODE_SAVED_INDICATOR_MS } from "@/lib/constants";
import type { CodeFile, UpdateFileResult } from "@/lib/space/code-schemas";

// The code editor's auto-save: a file is saved 1 s after the last keystroke, naming the revision
// it was typed over. "File save status: idle, saving, saved, error"; saved clears after 2 s. A
// save that lost to a change made meanwhile (the chat, another tab) stops the auto-save of that
// file and keeps both texts: the builder's, and the one saved now, until they keep one.

export type SaveStatus = "idle" | "saving" | "saved" | "error";

export type Conflict = { path: string; mine: string; theirs: { content: string; revision: string } };

export function useCodeSaver(appId: string, onSaved: (file: CodeFile, changed: boolean) => void) {
  const [status, setStatus] = useState<SaveStatus>("idle");
  const [conflict, setConflict] = useState<Conflict | null>(null);
  /** The revision each file's next save names: what the server last said the file was. */
  const revisions = useRef(new Map<string, string>());
  /** Text typed and not yet sent, by file (a file switch during a save loses none). */
  const pending = useRef(new Map<string, string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const conflictRef = useRef<Conflict | null>(null);
  conflictRef.current = conflict;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  /** The revisions of the files as loaded (or reloaded). */
  const know = useCallback((files: readonly CodeFile[]) => {
    for (const f of files) revisions.current.set(f.path, f.revision);
  }, []);

  const send = useCallback(
    async (path: string, content: string) => {
      const revision = revisions.current.get(path);
      if (!revision) return;
      if (clearTimer.current) clearTimeout(clearTimer.current);
      setStatus("saving");
      try {
        const answer = await apiFetch<UpdateFileResult>(
          `/api/apps/${encodeURIComponent(appId)}/files/update`,
          {
            body: { file: { id: path, content }, revision },
          },
        );
        revisions.current.set(path, answer.file.revision);
        onSavedRef.current(answer.file, answer.versionId !== null);
        // Typing went on during the save: that text goes next, on the revision just made.
        if (pending.current.has(path)) return;
        setStatus("saved");
        clearTimer.current = setTimeout(
          () => setStatus((s) => (s === "saved" ? "idle" : s)),
          CODE_SAVED_INDICATOR_MS,
        );
      } catch (e) {
        const current = e instanceof ApiError && e.status === 409 ? e.extra.current : undefined;
        if (current && typeof current === "object") {
          const theirs = current as { content: string; revision: string };
          // Text typed during the save is the builder's latest: that is "mine".
          const mine = pending.current.get(path) ?? content;
          pending.current.delete(path);
          setConflict({ path, mine, theirs });
          setStatus("idle");
          return;
        }
        setStatus("error");
      }
    },
    [appId],
  );

  /** Saves what is pending now (a file switch, Keep mine); resolves when no save is under way. */
  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    while (inFlight.current) await inFlight.current;
    const [next] = pending.current;
    if (!next) return;
    pending.current.delete(next[0]);
    inFlight.current = send(next[0], next[1]).finally(() => {
      inFlight.current = null;
    });
    await inFlight.current;
    if (pending.current.size > 0) await flush();
  }, [send]);

  /** The builder typed: the file is saved once they stop for a second. */
  const edit = useCallback(
    (path: string, content: string) => {
      const open = conflictRef.current;
      if (open?.path === path) {
        // No auto-save over a conflict: the text stays the builder's until they choose.
        setConflict({ ...open, mine: content });
        return;
      }
      pending.current.set(path, content);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), CODE_SAVE_DEBOUNCE_MS);
    },
    [flush],
  );

  /** Keep mine: saved over theirs, naming their revision. */
  const keepMine = useCallback(async () => {
    const open = conflictRef.current;
    if (!open) return;
    revisions.current.set(open.path, open.theirs.revision);
    setConflict(null);
    pending.current.set(open.path, open.mine);
    await flush();
  }, [flush]);

  /** Take theirs: the editor shows the file as saved now; nothing is sent. */
  const takeTheirs = useCallback((): Conflict | null => {
    const open = conflictRef.current;
    if (!open) return null;
    revisions.current.set(open.path, open.theirs.revision);
    setConflict(null);
    return open;
  }, []);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (clearTimer.current) clearTimeout(clearTimer.current);
      // Leaving the panel saves what was typed (the request outlives the component).
      for (const [path, content] of pending.current) void send(path, content);
    },
    [send],
  );

  return { status, conflict, know, edit, flush, keepMine, takeTheirs };
}
