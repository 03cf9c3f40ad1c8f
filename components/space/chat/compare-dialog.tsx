"use client";

import { GitMergeIcon } from "lucide-react";
import { useDeferredValue, useEffect, useId, useMemo, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import { orderChanges } from "@/lib/space/change-order";
import { fillTemplate } from "@/lib/text";
import { FileTree } from "./changes-dialog";
import { fetchCurrentFiles, fetchVersionDetail, type MergeResult, mergeChosenFiles } from "./chat-api";
import type { ChangedFile } from "./file-diff";
import { FileSidesDiff } from "./file-sides-diff";
import { type ChangedPath, givenSides, NONE_GIVEN, useFileSides } from "./use-file-sides";

// A version, or a repair's result, compared with the app's current files (the old side is the
// current files, the new side the version's or the repair's), and the merge of the files the
// builder ticks: only added and modified ones can be merged (a deletion is not), as one new version
// (a repair's as an autofix), with the functions among them deployed.

type Loaded =
  | { state: "loading" }
  | { state: "failed" }
  | {
      state: "ready";
      versionNumber: number | null;
      files: ChangedPath[];
      /** The files whose two sides are known: a version's first one, a repair's every one. */
      given: ReadonlyMap<string, ChangedFile>;
    };

/** What is compared with the current files: a version (all its files), or a repair's result (the files it changed). */
export type CompareSource =
  | { kind: "version"; versionId: string }
  | { kind: "repair"; files: { path: string; content: string }[] };

/**
 * What differs between the current files and the source's. A version's changes against the
 * current files come from the server without contents, with the first file's sides (each other
 * file is read when shown); a repair's few files are compared with the current files here.
 */
async function loadComparison(
  appId: string,
  source: CompareSource,
): Promise<Omit<Extract<Loaded, { state: "ready" }>, "state">> {
  if (source.kind === "version") {
    const detail = await fetchVersionDetail(appId, source.versionId, {
      files: "none",
      against: "current",
      sides: "first",
    });
    return {
      versionNumber: detail.version.number,
      files: orderChanges(detail.changes),
      given: givenSides(detail.firstFile),
    };
  }
  const now = new Map((await fetchCurrentFiles(appId)).files.map((f) => [f.path, f.content]));
  // A repair's result names only the files it changed: the others are not deletions.
  const changes: ChangedFile[] = [];
  for (const { path, content } of source.files) {
    const before = now.get(path);
    if (before === undefined) changes.push({ path, status: "added", before: "", after: content });
    else if (before !== content) changes.push({ path, status: "modified", before, after: content });
  }
  const files = orderChanges(changes);
  return { versionNumber: null, files, given: new Map(files.map((f) => [f.path, f])) };
}

/** The contents of the files to merge: a version's are read (once, at the merge), a repair's are known. */
async function contentsToMerge(appId: string, source: CompareSource, paths: string[]) {
  const files =
    source.kind === "repair" ? source.files : (await fetchVersionDetail(appId, source.versionId)).files;
  const wanted = new Set(paths);
  return files
    .filter((f) => wanted.has(f.path))
    .map((f) => ({ id: f.path, path: f.path, content: f.content }));
}

export function CompareDialog({
  appId,
  source: given,
  onMerged,
  onOpenChange,
}: {
  appId: string;
  source: CompareSource;
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
    loadComparison(appId, source).then(
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
  }, [appId, source, attempt]);

  const files = loaded.state === "ready" ? loaded.files : [];
  const mergeable = useMemo(() => files.filter((f) => f.status !== "deleted"), [files]);
  // The tree and the first file's diff are drawn first; the list of check boxes (a row per file)
  // follows in a render of its own, so a large version shows what to read without waiting for it.
  const listed = useDeferredValue(mergeable);
  const file = files.find((f) => f.path === selected);
  const { sides, retry } = useFileSides(
    appId,
    source.kind === "version" ? source.versionId : "",
    "current",
    file,
    loaded.state === "ready" ? loaded.given : NONE_GIVEN,
  );
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
      const chosenFiles = await contentsToMerge(
        appId,
        source,
        picked.map((f) => f.path),
      );
      const answer = await mergeChosenFiles(appId, chosenFiles, source.kind === "repair");
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
          <LoadFailed text={messages.compareLoadFailed} onRetry={() => setAttempt((n) => n + 1)} />
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
                    <input
                      type="checkbox"
                      id={`${listId}-all`}
                      checked={allChosen}
                      onChange={(e) =>
                        setChosen(e.target.checked ? new Set(mergeable.map((f) => f.path)) : new Set())
                      }
                      className="size-4 shrink-0 accent-primary"
                    />
                    <label htmlFor={`${listId}-all`}>{messages.mergeSelectAll}</label>
                  </div>
                ) : null}
                {/* Native boxes, one element a row (the tree beside shows each file's status): 200
                    of them render and lay out in a fraction of the time of styled components. Rows
                    scrolled out of the list's box are not laid out or painted until near it, as the
                    tree's items; 2rem is a row's height (min-h-8). */}
                <ul id={listId} className="grid max-h-48 overflow-auto">
                  {listed.map((f) => (
                    <li
                      key={f.path}
                      className="flex min-h-8 min-w-0 items-center gap-2 [contain-intrinsic-size:auto_2rem] [content-visibility:auto]"
                    >
                      <input
                        type="checkbox"
                        checked={chosen.has(f.path)}
                        onChange={(e) => toggle(f.path, e.target.checked)}
                        aria-label={fillTemplate(messages.mergeSelectFile, { path: f.path })}
                        className="size-4 shrink-0 accent-primary"
                      />
                      <span className="min-w-0 flex-1 truncate font-mono text-xs" title={f.path}>
                        {f.path}
                      </span>
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
            {file ? (
              <FileSidesDiff sides={sides} retry={retry} failedText={messages.compareLoadFailed} />
            ) : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
