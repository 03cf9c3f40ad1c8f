"use client";

/**
 * The editor's saving hooks: one per record kind, all on one engine (save-engine.ts).
 *
 *   const app = useAppSaver(appId, { revision, value: content });        // PATCH /api/apps/{id}
 *   const style = useStyleSaver(appId, editorApp.style);                 // POST .../style
 *   const settings = useSettingsSaver(appId, editorApp.settings);        // POST .../settings
 *   const tool = useToolSaver(appId, toolView);                          // PATCH .../tools/{toolId}
 *   useSaveGuard([app, style, settings]);   // leave-page warning while dirty; retry when online
 *
 * Every Saver<V> offers:
 * - `value`: the saved value with the unsaved edits on top (render from it);
 * - `edit(patch)`: merge a partial edit; it is saved APP_SAVE_DEBOUNCE_MS after the last edit,
 *   one request at a time, on the revision the previous save answered;
 * - `flush()`: save now; resolves true when everything is saved, false when a save failed or
 *   waits for the builder's choice (the edits stay either way);
 * - `revert(keys?)`: drop unsaved edits (of these keys), e.g. a refused activation;
 * - `retryNow()`: retry a failed save at once;
 * - `resolveConflict("mine" | "theirs")`: after a 409, send my edits on top of their revision,
 *   or take their version;
 * - `state`: { dirty, saving, error: { kind: "transient" | "rule", message } | null,
 *   conflict: { theirs, theirRevision, mine, keys } | null, retryAt }, and `revision`;
 * - `kind`: which record it is ("app" | "style" | "settings" | "tool"), for messages.
 *
 * A transient failure (network, 5xx) is retried with a doubling backoff and shown with the
 * spec's message for the record; a rule error (other 4xx) shows the server's message and waits
 * for a new edit; a 409 opens the conflict dialog (SaveConflictDialog). The value of a tool
 * saver is flat (ToolRecord: the tool's content with path, imageUrl and status).
 */

import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useLeavePageWarning } from "@/components/shell/use-leave-warning";
import type { ToolView } from "@/lib/apps/editor-app";
import type { AppContent, AppSettings, AppStyle } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { RecordSaver, type SaveFailure, type SaveOutcome, type SaverState } from "./save-engine";
import {
  saveAppContent,
  saveAppSettings,
  saveAppStyle,
  saveTool,
  type ToolRecord,
  toolRecord,
} from "./save-requests";

export type { ToolRecord } from "./save-requests";
export { toolRecord } from "./save-requests";

export type RecordKind = "app" | "style" | "settings" | "tool";

export type Saver<V extends object> = {
  kind: RecordKind;
  value: V;
  revision: number;
  state: SaverState<V>;
  edit: (patch: Partial<V>) => void;
  flush: () => Promise<boolean>;
  revert: (keys?: (keyof V)[]) => void;
  retryNow: () => void;
  resolveConflict: (choice: "mine" | "theirs") => void;
};

/** "Failed saving app, your changes might be lost..." for the app; the record's own otherwise. */
export const failureMessages: Record<RecordKind, string> = {
  app: messages.saveFailedMightLose,
  style: messages.saveStyleFailed,
  settings: messages.saveSettingsFailed,
  tool: messages.saveToolFailed,
};

/**
 * The generic hook: one RecordSaver for the component's lifetime. `send` is read through a ref
 * so a new closure each render does not matter; `initial` is read once.
 */
export function useRecordSaver<V extends object>(
  kind: RecordKind,
  initial: { revision: number; value: V },
  send: (patch: Partial<V>, baseRevision: number) => Promise<SaveOutcome<V>>,
): Saver<V> {
  const [sendRef] = useState(() => ({ current: send }));
  sendRef.current = send;
  const [engine] = useState(
    () =>
      new RecordSaver<V>({
        revision: initial.revision,
        value: initial.value,
        send: (patch, base) => sendRef.current(patch, base),
        failureMessage: failureMessages[kind],
      }),
  );

  useEffect(() => {
    engine.start();
    return engine.stop;
  }, [engine]);

  const state = useSyncExternalStore(engine.subscribe, engine.getSnapshot, engine.getSnapshot);
  return useMemo(
    () => ({
      kind,
      value: state.value,
      revision: state.revision,
      state,
      edit: engine.edit,
      flush: engine.flush,
      revert: engine.revert,
      retryNow: engine.retryNow,
      resolveConflict: engine.resolveConflict,
    }),
    [kind, state, engine],
  );
}

/** The app's content (texts, fields, CTA, instructions...). */
export function useAppSaver(
  appId: string,
  initial: { revision: number; value: AppContent },
): Saver<AppContent> {
  return useRecordSaver("app", initial, (patch, base) => saveAppContent(appId, patch, base));
}

/** The app style, its own record (revision 0 = never saved). */
export function useStyleSaver(
  appId: string,
  initial: { revision: number; appStyle: AppStyle },
): Saver<AppStyle> {
  return useRecordSaver("style", { revision: initial.revision, value: initial.appStyle }, (patch, base) =>
    saveAppStyle(appId, patch, base),
  );
}

/** Tool and app settings, their own record. */
export function useSettingsSaver(
  appId: string,
  initial: { revision: number; appSettings: AppSettings },
): Saver<AppSettings> {
  return useRecordSaver(
    "settings",
    { revision: initial.revision, value: initial.appSettings },
    (patch, base) => saveAppSettings(appId, patch, base),
  );
}

/** One tool of a generated app, as a flat ToolRecord (title = header). */
export function useToolSaver(appId: string, tool: ToolView): Saver<ToolRecord> {
  return useRecordSaver("tool", { revision: tool.revision, value: toolRecord(tool) }, (patch, base) =>
    saveTool(appId, tool.toolId, patch, base),
  );
}

/** Any saver, whatever its record: what the indicator, the error banner and the dialog read. */
export type SaverView = {
  kind: RecordKind;
  state: {
    dirty: boolean;
    saving: boolean;
    error: SaveFailure | null;
    conflict: { theirs: object; theirRevision: number; mine: object; keys: string[] } | null;
  };
  retryNow: () => void;
  resolveConflict: (choice: "mine" | "theirs") => void;
};

/**
 * While any saver has unsaved edits, leaving the page asks first ('You have unsaved changes!
 * Are you sure you want to leave?'); when the browser comes back online, failed saves are
 * retried at once instead of waiting for their backoff.
 */
export function useSaveGuard(savers: readonly SaverView[]): void {
  const dirty = savers.some((s) => s.state.dirty);
  useLeavePageWarning(dirty);
  const [current] = useState(() => ({ savers }));
  current.savers = savers;
  const failing = savers.some((s) => s.state.error?.kind === "transient");
  useEffect(() => {
    if (!failing) return;
    const onOnline = () => {
      for (const saver of current.savers) if (saver.state.error?.kind === "transient") saver.retryNow();
    };
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [failing, current]);
}
