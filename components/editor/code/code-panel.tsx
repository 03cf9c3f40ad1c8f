"use client";

import { AlertTriangleIcon, SearchIcon, Trash2Icon } from "lucide-react";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { CodeEditor } from "@/components/code-editor/code-editor";
import { PanelHeading } from "@/components/editor/panel-parts";
import { fetchCurrentFiles } from "@/components/space/chat/chat-api";
import { useFilesChanged } from "@/components/space/chat/files-changed";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { FILE_TREE_SEARCH_DEBOUNCE_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { CodeFile, DeleteFileResult } from "@/lib/space/code-schemas";
import type { ReferenceUpdate } from "@/lib/space/import-references";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { DeleteFileDialog } from "./delete-file-dialog";
import { groupFiles } from "./file-groups";
import { FileTree } from "./file-tree";
import { type SaveStatus, useCodeSaver } from "./use-code-saver";

type State = { phase: "loading" } | { phase: "error" } | { phase: "ready"; canEdit: boolean };

/**
 * The Code panel of a space app: its files grouped by kind, searchable, and the file chosen in
 * CodeMirror. Admins edit (saved a second after they stop typing; a change made meanwhile by the
 * chat or another tab shows both texts until they keep one) and delete; everyone else reads.
 */
export function CodePanel({ appId }: { appId: string }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [files, setFiles] = useState<CodeFile[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState("");
  const [deleting, setDeleting] = useState<CodeFile | null>(null);
  /** What the editor held for each file opened, saved or not: a file switch loses no typing. */
  const drafts = useRef(new Map<string, string>());
  const searchId = useId();

  const filesChanged = useFilesChanged();
  const onSaved = useCallback(
    (file: CodeFile, changed: boolean) => {
      setFiles((list) => list.map((f) => (f.path === file.path ? file : f)));
      if (changed) filesChanged();
    },
    [filesChanged],
  );
  const saver = useCodeSaver(appId, onSaved);
  const { know } = saver;

  const load = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      const answer = await fetchCurrentFiles(appId);
      know(answer.files);
      drafts.current.clear();
      setFiles(answer.files);
      setState({ phase: "ready", canEdit: answer.canEdit });
    } catch {
      setState({ phase: "error" });
    }
  }, [appId, know]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const t = setTimeout(() => setSearch(query), FILE_TREE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query]);

  const groups = useMemo(() => groupFiles(files, search), [files, search]);
  const file = files.find((f) => f.path === selected) ?? null;
  const canEdit = state.phase === "ready" && state.canEdit;
  const editable = canEdit && !!file && !file.readOnly;
  const conflict = saver.conflict && saver.conflict.path === selected ? saver.conflict : null;

  const open = (path: string) => {
    if (path === selected) return;
    void saver.flush();
    const f = files.find((x) => x.path === path);
    setSelected(path);
    setText(drafts.current.get(path) ?? f?.content ?? "");
  };

  const onType = (value: string) => {
    if (!file) return;
    drafts.current.set(file.path, value);
    setText(value);
    saver.edit(file.path, value);
  };

  const takeTheirs = () => {
    const taken = saver.takeTheirs();
    if (!taken) return;
    drafts.current.set(taken.path, taken.theirs.content);
    setFiles((list) =>
      list.map((f) =>
        f.path === taken.path ? { ...f, content: taken.theirs.content, revision: taken.theirs.revision } : f,
      ),
    );
    setText(taken.theirs.content);
  };

  const remove = async (target: CodeFile, references: ReferenceUpdate[]) => {
    setDeleting(null);
    try {
      await saver.flush();
      const answer = await apiFetch<DeleteFileResult>(`/api/apps/${encodeURIComponent(appId)}/files/delete`, {
        body: { fileId: target.path, revision: target.revision, referencesToUpdate: references },
      });
      know(answer.updated);
      for (const f of answer.updated) drafts.current.delete(f.path);
      drafts.current.delete(target.path);
      setFiles((list) =>
        list
          .filter((f) => f.path !== answer.deleted)
          .map((f) => answer.updated.find((u) => u.path === f.path) ?? f),
      );
      if (selected === target.path) setSelected(null);
      else if (selected && answer.updated.some((u) => u.path === selected)) {
        setText(answer.updated.find((u) => u.path === selected)!.content);
      }
      filesChanged();
      toast.success(fillTemplate(messages.deletedName, { name: target.name }));
    } catch {
      toast.error(messages.codeDeleteFailed);
    }
  };

  if (state.phase === "loading") return <LoadingLine text={messages.codeFilesLoading} />;
  if (state.phase === "error") return <LoadFailed text={messages.codeFilesLoadFailed} onRetry={load} />;

  return (
    <div className="grid min-w-0 gap-4" data-testid="code-panel">
      <PanelHeading
        title={messages.codeTitle}
        description={canEdit ? messages.codeDescription : messages.codeDescriptionReadOnly}
      />
      {files.length === 0 ? (
        <EmptyState title={messages.codeTitle} text={messages.codeEmpty} />
      ) : (
        <>
          <div className="relative">
            <label htmlFor={searchId} className="sr-only">
              {messages.codeSearchLabel}
            </label>
            <SearchIcon
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id={searchId}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={messages.codeSearchPlaceholder}
              className="pl-8"
            />
          </div>
          {groups.length === 0 ? (
            <p className="text-sm text-muted-foreground">{messages.codeSearchNoMatch}</p>
          ) : (
            <FileTree groups={groups} selected={selected} searching={search.trim() !== ""} onSelect={open} />
          )}
          {file ? (
            <section aria-label={file.path} className="grid min-w-0 gap-2">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <h3 className="min-w-0 flex-1 truncate font-mono text-sm font-medium">{file.path}</h3>
                <SaveState status={saver.status} />
                {canEdit && !file.readOnly ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setDeleting(file)}
                    aria-label={`${messages.codeDelete}: ${file.name}`}
                  >
                    <Trash2Icon aria-hidden />
                    <span className="max-sm:sr-only">{messages.codeDelete}</span>
                  </Button>
                ) : null}
              </div>
              {!editable ? (
                <p className="text-xs text-muted-foreground" data-testid="code-read-only">
                  {file.readOnly ? messages.codeReadOnlyFile : messages.codeReadOnlyRole}
                </p>
              ) : (
                <p className="text-xs text-muted-foreground">{messages.codeEscapeHint}</p>
              )}
              {conflict ? (
                <div
                  role="alert"
                  data-testid="code-conflict"
                  className="grid gap-2 rounded-md border border-amber-500/60 bg-amber-50 p-3 text-sm dark:bg-amber-950/40"
                >
                  <p className="flex items-center gap-2 font-medium">
                    <AlertTriangleIcon aria-hidden className="size-4 shrink-0" />
                    {messages.codeConflictTitle}
                  </p>
                  <p>{fillTemplate(messages.codeConflictText, { path: conflict.path })}</p>
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" onClick={() => void saver.keepMine()}>
                      {messages.codeKeepMine}
                    </Button>
                    <Button size="sm" variant="outline" onClick={takeTheirs}>
                      {messages.codeTakeTheirs}
                    </Button>
                  </div>
                  <p className="text-xs font-medium">{messages.codeConflictTheirs}</p>
                  <CodeEditor
                    key={`theirs-${conflict.theirs.revision}`}
                    path={conflict.path}
                    value={conflict.theirs.content}
                    readOnly
                    label={messages.codeConflictTheirs}
                    className="h-48 bg-background"
                    testId="code-theirs"
                  />
                  <p className="text-xs font-medium">{messages.codeConflictMine}</p>
                </div>
              ) : null}
              <CodeEditor
                key={file.path}
                path={file.path}
                value={text}
                readOnly={!editable}
                label={fillTemplate(messages.codeEditorLabel, { path: file.path })}
                onChange={onType}
                className={cn("h-[60vh] min-h-64", conflict && "h-[40vh]")}
                testId="code-editor"
              />
            </section>
          ) : (
            <p className="text-sm text-muted-foreground">{messages.codePickFile}</p>
          )}
        </>
      )}
      {deleting ? (
        <DeleteFileDialog
          file={deleting}
          files={files}
          onCancel={() => setDeleting(null)}
          onConfirm={(refs) => void remove(deleting, refs)}
        />
      ) : null}
    </div>
  );
}

function SaveState({ status }: { status: SaveStatus }) {
  const text =
    status === "saving"
      ? messages.codeStatusSaving
      : status === "saved"
        ? messages.codeStatusSaved
        : status === "error"
          ? messages.codeSaveFailed
          : "";
  return (
    <p
      role="status"
      data-testid="code-save-status"
      data-status={status}
      className={cn("text-xs", status === "error" ? "text-destructive" : "text-muted-foreground")}
    >
      {text}
    </p>
  );
}
