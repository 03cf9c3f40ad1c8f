"use client";

import { GitMergeIcon, RotateCcwIcon } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { FileTree, orderChanges } from "./changes-dialog";
import { fetchCurrentVersion, fetchVersionDetail, type MergeResult, mergeChosenFiles } from "./chat-api";
import { type ChangedFile, FileDiff, StatusLetter } from "./file-diff";

// A version, or a repair's result, compared with the app's current files (the old side is the
// current files, the new side the version's or the repair's), and the merge of the files the
// builder ticks: only added and modified ones can be merged (a deletion is not), as one new version
// (a repair's as an autofix), with the functions among them deployed.

type Loaded =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "ready"; versionNumber: number | null; files: ChangedFile[] };

/** What is compared with the current files: a version (all its files), or a repair's result (the files it changed). */
export type CompareSource =
  | { kind: "version"; versionId: string }
  | { kind: "repair"; files: { path: string; content: string }[] };

/** What differs between the current files and the source's, each with both sides. */
async function loadComparison(appId: string, source: CompareSource, currentKnown: string | null | undefined) {
  const currentId =
    currentKnown === undefined ? ((await fetchCurrentVersion(appId))?.id ?? null) : currentKnown;
  const [version, current] = await Promise.all([
    source.kind === "version" ? fetchVersionDetail(appId, source.versionId) : null,
    currentId ? fetchVersionDetail(appId, currentId) : null,
  ]);
  const now = new Map((current?.files ?? []).map((f) => [f.path, f.content]));
  const then = new Map(
    (version?.files ?? (source.kind === "repair" ? source.files : [])).map((f) => [f.path, f.content]),
  );
  const changes: ChangedFile[] = [];
  for (const [path, content] of then) {
    const before = now.get(path);
    if (before === undefined) changes.push({ path, status: "added", before: "", after: content });
    else if (before !== content) changes.push({ path, status: "modified", before, after: content });
  }
  // A repair's result names only the files it changed: the others are not deletions.
  if (source.kind === "version") {
    for (const [path, before] of now) {
      if (!then.has(path)) changes.push({ path, status: "deleted", before, after: "" });
    }
  }
  return { versionNumber: version?.version.number ?? null, files: orderChanges(changes) };
}

export function CompareDialog({
  appId,
  source: given,
  currentVersionId,
  onMerged,
  onOpenChange,
}: {
  appId: string;
  source: CompareSource;
  /** The app's current version (null: no files yet; undefined: read it from the server). */
  currentVersionId?: string | null;
  onMerged: (answer: MergeResult) => void;
  onOpenChange: (open: boolean) => void;
}) {
  // What is compared is fixed for the dialog's life (a new object each render must not reload it).
  const [source] = useState(given);
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [selected, setSelected] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [attempt, setAttempt] = useState(0);
  const [merging, setMerging] = useState(false);
  const listId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads after a failure
  useEffect(() => {
    let live = true;
    setLoaded({ state: "loading" });
    loadComparison(appId, source, currentVersionId).then(
      (r) => {
        if (!live) return;
        setLoaded({ state: "ready", ...r });
        setSelected(r.files[0]?.path ?? null);
        setChosen(new Set());
      },
      () => live && setLoaded({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [appId, source, currentVersionId, attempt]);

  const files = loaded.state === "ready" ? loaded.files : [];
  const mergeable = useMemo(() => files.filter((f) => f.status !== "deleted"), [files]);
  const file = files.find((f) => f.path === selected);
  const allChosen = mergeable.length > 0 && mergeable.every((f) => chosen.has(f.path));

  const toggle = (path: string, on: boolean) =>
    setChosen((c) => {
      const next = new Set(c);
      if (on) next.add(path);
      else next.delete(path);
      return next;
    });

  const merge = async () => {
    if (loaded.state !== "ready") return;
    const picked = mergeable.filter((f) => chosen.has(f.path));
    setMerging(true);
    try {
      const answer = await mergeChosenFiles(
        appId,
        picked.map((f) => ({ id: f.path, path: f.path, content: f.after })),
        source.kind === "repair",
      );
      toast.success(answer.message);
      if (answer.deploymentMessage) toast.warning(answer.deploymentMessage);
      onMerged(answer);
      onOpenChange(false);
    } catch (err) {
      // The spec's refusals ('No changes to merge', ...) say what happened; anything else is the generic failure.
      toast.error(err instanceof ApiError && err.status === 400 ? err.message : messages.mergeFailed);
    } finally {
      setMerging(false);
    }
  };

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent size="xl" data-testid="compare-dialog" className="gap-3 p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>
            {source.kind === "repair"
              ? messages.compareRepairTitle
              : loaded.state === "ready" && loaded.versionNumber !== null
                ? fillTemplate(messages.compareTitle, { n: loaded.versionNumber })
                : messages.compareWithCurrent}
          </DialogTitle>
          <DialogDescription>
            {source.kind === "repair"
              ? messages.compareRepairDescription
              : loaded.state === "ready" && loaded.versionNumber !== null
                ? fillTemplate(messages.compareDescription, { n: loaded.versionNumber })
                : messages.diffText}
          </DialogDescription>
        </DialogHeader>
        {loaded.state === "loading" ? (
          <LoadingLine text={messages.diffLoading} />
        ) : loaded.state === "failed" ? (
          <div className="grid justify-items-start gap-2 text-sm" role="alert">
            <p>{messages.compareLoadFailed}</p>
            <Button size="sm" variant="outline" onClick={() => setAttempt((n) => n + 1)}>
              <RotateCcwIcon aria-hidden />
              {messages.retry}
            </Button>
          </div>
        ) : files.length === 0 ? (
          <p className="text-sm text-muted-foreground">{messages.compareNoDifferences}</p>
        ) : (
          <div className="grid min-h-0 gap-3 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
            <div className="grid content-start gap-3">
              <FileTree files={files} selected={selected} onSelect={setSelected} />
              <fieldset className="grid gap-2 rounded-md border border-border p-2 text-sm">
                <legend className="px-1 text-xs font-medium">{messages.mergeFilesLegend}</legend>
                {mergeable.length > 1 ? (
                  <div className="flex min-h-8 items-center gap-2 text-xs text-muted-foreground">
                    <Checkbox
                      id={`${listId}-all`}
                      checked={allChosen}
                      onCheckedChange={(v) =>
                        setChosen(v === true ? new Set(mergeable.map((f) => f.path)) : new Set())
                      }
                    />
                    <label htmlFor={`${listId}-all`}>{messages.mergeSelectAll}</label>
                  </div>
                ) : null}
                <ul id={listId} className="grid max-h-48 overflow-auto">
                  {mergeable.map((f) => (
                    <li key={f.path}>
                      <div className="flex min-h-8 min-w-0 items-center gap-2" data-merge-file={f.path}>
                        <Checkbox
                          checked={chosen.has(f.path)}
                          onCheckedChange={(v) => toggle(f.path, v === true)}
                          aria-label={fillTemplate(messages.mergeSelectFile, { path: f.path })}
                        />
                        <span className="min-w-0 flex-1 truncate font-mono text-xs" title={f.path}>
                          {f.path}
                        </span>
                        <StatusLetter status={f.status} />
                      </div>
                    </li>
                  ))}
                </ul>
                {files.some((f) => f.status === "deleted") ? (
                  <p className="text-xs text-muted-foreground">{messages.mergeDeletedNotMergeable}</p>
                ) : null}
                <Button
                  type="button"
                  size="sm"
                  onClick={() => void merge()}
                  disabled={merging || chosen.size === 0}
                  aria-controls={listId}
                >
                  <GitMergeIcon aria-hidden />
                  {merging ? messages.mergeMerging : fillTemplate(messages.mergeSelected, { n: chosen.size })}
                </Button>
              </fieldset>
            </div>
            {file ? <FileDiff file={file} /> : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
