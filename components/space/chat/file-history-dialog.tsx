"use client";

import { HistoryIcon, Loader2Icon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { CodeView } from "./code-view";
import { FileDiff, STATUS_COLOR, STATUS_LABEL } from "./file-diff";
import { useFocusOpener } from "./use-focus-opener";
import { versionDate, versionText } from "./version-text";
import {
  type FileAtVersion,
  type FileHistoryEntry,
  fetchFileAtVersion,
  fetchFileHistory,
} from "./versions-api";

// The version history dialog per file: the versions that added, modified or deleted
// one file, newest first, a page of 50 at a time ("the file version dialog loads up to 50
// versions"), and the file as the chosen version had it, in the read-only code viewer or as
// the changes that version made to it, or the failure's message.

type History =
  | { state: "loading" }
  | { state: "failed" }
  | {
      state: "ready";
      entries: FileHistoryEntry[];
      nextBefore: number | null;
      more: "idle" | "loading" | "failed";
    };

const baseName = (path: string) => path.split("/").at(-1) || path;

export function FileHistoryDialog({
  appId,
  path,
  onOpenChange,
}: {
  appId: string;
  path: string;
  onOpenChange: (open: boolean) => void;
}) {
  const focusOpener = useFocusOpener();
  const [history, setHistory] = useState<History>({ state: "loading" });
  const [selected, setSelected] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads after a failure
  useEffect(() => {
    let live = true;
    setHistory({ state: "loading" });
    fetchFileHistory(appId, path, null).then(
      (page) => {
        if (!live) return;
        setHistory({ state: "ready", entries: page.entries, nextBefore: page.nextBefore, more: "idle" });
        setSelected(page.entries[0]?.version.id ?? null);
      },
      () => live && setHistory({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [appId, path, attempt]);

  const loadMore = useCallback(async () => {
    if (history.state !== "ready" || history.nextBefore === null) return;
    const before = history.nextBefore;
    setHistory({ ...history, more: "loading" });
    try {
      const page = await fetchFileHistory(appId, path, before);
      setHistory((h) =>
        h.state === "ready"
          ? {
              state: "ready",
              entries: [...h.entries, ...page.entries],
              nextBefore: page.nextBefore,
              more: "idle",
            }
          : h,
      );
    } catch {
      setHistory((h) => (h.state === "ready" ? { ...h, more: "failed" } : h));
    }
  }, [appId, path, history]);

  const entry =
    history.state === "ready" ? history.entries.find((e) => e.version.id === selected) : undefined;
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={focusOpener}
        size="xl"
        data-testid="file-history-dialog"
        className="gap-3 p-4 sm:p-6"
      >
        <DialogHeader>
          <DialogTitle className="break-all">
            {fillTemplate(messages.fileHistoryTitle, { name: baseName(path) })}
          </DialogTitle>
          <DialogDescription>
            <span className="font-mono text-xs break-all text-foreground">{path}</span>
            <span className="block">{messages.fileHistoryText}</span>
          </DialogDescription>
        </DialogHeader>
        {history.state === "loading" ? (
          <LoadingLine text={messages.fileHistoryLoading} />
        ) : history.state === "failed" ? (
          <LoadFailed text={messages.fileHistoryFailed} onRetry={() => setAttempt((n) => n + 1)} />
        ) : history.entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">{messages.fileHistoryNoneFound}</p>
        ) : (
          <div className="grid min-h-0 gap-3 md:grid-cols-[minmax(0,17rem)_minmax(0,1fr)]">
            <div className="grid content-start gap-2">
              <ol
                aria-label={messages.fileHistoryVersions}
                className="grid max-h-52 gap-1 overflow-y-auto rounded-md border border-border p-1 md:max-h-[60vh]"
                data-testid="file-history-list"
              >
                {history.entries.map((e) => (
                  <li key={e.version.id}>
                    <EntryButton
                      entry={e}
                      selected={e.version.id === selected}
                      onSelect={() => setSelected(e.version.id)}
                    />
                  </li>
                ))}
              </ol>
              {history.nextBefore !== null ? (
                <div className="grid justify-items-start gap-1 text-sm">
                  {history.more === "failed" ? <p role="alert">{messages.fileHistoryFailed}</p> : null}
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={history.more === "loading"}
                    onClick={() => void loadMore()}
                  >
                    {history.more === "loading" ? <Loader2Icon aria-hidden className="animate-spin" /> : null}
                    {messages.fileHistoryLoadMore}
                  </Button>
                </div>
              ) : null}
            </div>
            {entry ? (
              <FileAtVersionView key={entry.version.id} appId={appId} path={path} entry={entry} />
            ) : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function EntryButton({
  entry,
  selected,
  onSelect,
}: {
  entry: FileHistoryEntry;
  selected: boolean;
  onSelect: () => void;
}) {
  const { version, change } = entry;
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onSelect}
      data-version-number={version.number}
      data-change={change}
      className={cn(
        "grid w-full gap-0.5 rounded-sm px-2 py-1.5 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
        selected && "bg-accent",
      )}
    >
      <span className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{fillTemplate(messages.versionsNumber, { n: version.number })}</span>
        <span className={cn("text-xs font-medium", STATUS_COLOR[change])}>{STATUS_LABEL[change]}</span>
        {version.isCurrent ? <Badge tone="positive">{messages.versionsCurrent}</Badge> : null}
      </span>
      <span className="text-xs text-muted-foreground">{versionDate(version.createdAt)}</span>
      <span className="line-clamp-2 text-xs break-words">{versionText(version)}</span>
    </button>
  );
}

type Code = { state: "loading" } | { state: "failed" } | { state: "ready"; file: FileAtVersion };

/** The file at one version: its code, or the changes that version made to it. */
function FileAtVersionView({ appId, path, entry }: { appId: string; path: string; entry: FileHistoryEntry }) {
  const [code, setCode] = useState<Code>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [mode, setMode] = useState<"code" | "changes">("code");
  const versionId = entry.version.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads after a failure
  useEffect(() => {
    let live = true;
    setCode({ state: "loading" });
    fetchFileAtVersion(appId, versionId, path).then(
      (file) => live && setCode({ state: "ready", file }),
      () => live && setCode({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [appId, versionId, path, attempt]);

  const label = fillTemplate(messages.codeViewLabel, { path, n: entry.version.number });
  return (
    <div className="grid min-w-0 content-start gap-2" data-testid="file-at-version">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">
          {fillTemplate(messages.versionsNumber, { n: entry.version.number })}
          <span className="font-normal text-muted-foreground"> · {versionDate(entry.version.createdAt)}</span>
        </h3>
        <fieldset className="flex gap-1">
          <legend className="sr-only">{messages.codeViewModes}</legend>
          {(["code", "changes"] as const).map((m) => (
            <Button
              key={m}
              size="sm"
              variant={mode === m ? "secondary" : "ghost"}
              className="h-7 px-2"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
            >
              {m === "code" ? messages.codeViewCode : messages.codeViewChanges}
            </Button>
          ))}
        </fieldset>
      </div>
      {code.state === "loading" ? (
        <LoadingLine text={messages.codeLoading} />
      ) : code.state === "failed" ? (
        <LoadFailed text={messages.codeLoadFailed} onRetry={() => setAttempt((n) => n + 1)} />
      ) : mode === "changes" ? (
        <FileDiff
          heading={false}
          file={{
            path,
            status: entry.change,
            before: code.file.previousContent ?? "",
            after: code.file.content ?? "",
          }}
        />
      ) : code.file.content === null ? (
        <p className="text-sm text-muted-foreground">{messages.codeDeleted}</p>
      ) : (
        <CodeView code={code.file.content} label={label} path={path} />
      )}
    </div>
  );
}

/** The "History" button of one file: opens its version history. */
export function FileHistoryButton({
  path,
  onOpen,
  variant,
  className,
}: {
  path: string;
  onOpen: (path: string) => void;
  variant: "outline" | "ghost";
  className?: string;
}) {
  return (
    <Button
      size="sm"
      variant={variant}
      className={cn("h-7 px-2", className)}
      aria-haspopup="dialog"
      aria-label={fillTemplate(messages.fileHistoryOpen, { path })}
      onClick={() => onOpen(path)}
    >
      <HistoryIcon aria-hidden />
      {messages.fileHistoryButton}
    </Button>
  );
}

/**
 * The history of `path` over another dialog, when one is chosen. Render it inside that dialog's
 * content: the dialog over it is then part of it (a click there is no click outside).
 */
export function NestedFileHistory({
  appId,
  path,
  onClose,
}: {
  appId: string;
  path: string | null;
  onClose: () => void;
}) {
  if (!path) return null;
  return (
    <FileHistoryDialog
      appId={appId}
      path={path}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    />
  );
}
