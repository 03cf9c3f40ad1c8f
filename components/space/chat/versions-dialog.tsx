"use client";

import {
  ChevronRightIcon,
  EyeIcon,
  GitCompareArrowsIcon,
  MessageSquareIcon,
  RotateCcwIcon,
} from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import { orderChanges } from "@/lib/space/change-order";
import type { VersionSummary } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { fetchVersionDetail } from "./chat-api";
import { type ChangeStatus, StatusLetter } from "./file-diff";
import { FileHistoryButton, NestedFileHistory } from "./file-history-dialog";
import { versionDate, versionText } from "./version-text";
import { fetchVersionList, type VersionList } from "./versions-api";

// The Versions dialog of a space app: "the app version list shows the latest 10 plus the current
// one with an intermediate count". Each version offers what its message offers in the
// chat (go to that message, Preview for all but the current one) and the files it changed, each
// with its version history dialog.

type Loaded = { state: "loading" } | { state: "failed" } | { state: "ready"; list: VersionList };

const earlier = (n: number) =>
  n === 1 ? messages.versionsEarlierOne : fillTemplate(messages.versionsEarlier, { n });

export function VersionsDialog({
  appId,
  previewVersionId,
  onPreview,
  onGoToMessage,
  onCompare,
  onOpenChange,
  onCloseAutoFocus,
}: {
  appId: string;
  previewVersionId: string | null;
  /** Previews a version (null: back to the current one); the dialog closes to show it. */
  onPreview: (versionId: string | null) => void;
  /** Goes to a message of the chat (?messageId=); the dialog closes. */
  onGoToMessage: (messageId: string) => void;
  /** Compares a version with the current files (to merge some of them); the dialog closes. */
  onCompare: (versionId: string) => void;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (back to its opener unless prevented). */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads after a failure
  useEffect(() => {
    let live = true;
    setLoaded({ state: "loading" });
    fetchVersionList(appId).then(
      (list) => live && setLoaded({ state: "ready", list }),
      () => live && setLoaded({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [appId, attempt]);

  const rowProps = { appId, previewVersionId, onPreview, onGoToMessage, onCompare, onHistory: setHistoryOf };
  let body: React.ReactNode;
  if (loaded.state === "loading") {
    body = <LoadingLine text={messages.versionsLoading} />;
  } else if (loaded.state === "failed") {
    body = <LoadFailed text={messages.versionsLoadFailed} onRetry={() => setAttempt((n) => n + 1)} />;
  } else if (loaded.list.total === 0) {
    body = <p className="text-sm text-muted-foreground">{messages.versionsNoneFound}</p>;
  } else {
    const { versions, current, intermediateCount, total } = loaded.list;
    // The current version is listed apart when it is older than the latest ones.
    const apart = current && !versions.some((v) => v.id === current.id) ? current : null;
    const older = total - versions.length - (apart ? intermediateCount + 1 : 0);
    body = (
      <ol className="grid gap-2" data-testid="versions-list">
        {versions.map((v) => (
          <VersionRow key={v.id} version={v} {...rowProps} />
        ))}
        {apart && intermediateCount > 0 ? <Gap text={earlier(intermediateCount)} /> : null}
        {apart ? <VersionRow version={apart} {...rowProps} /> : null}
        {older > 0 ? <Gap text={earlier(older)} /> : null}
      </ol>
    );
  }

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        size="md"
        onCloseAutoFocus={onCloseAutoFocus}
        data-testid="versions-dialog"
        className="gap-3 p-4 sm:p-6"
      >
        <DialogHeader>
          <DialogTitle>{messages.versionsTitle}</DialogTitle>
          <DialogDescription>{messages.versionsText}</DialogDescription>
        </DialogHeader>
        {body}
        <NestedFileHistory appId={appId} path={historyOf} onClose={() => setHistoryOf(null)} />
      </DialogContent>
    </Dialog>
  );
}

/** "{n} earlier versions": the versions the list leaves out, where they are. */
function Gap({ text }: { text: string }) {
  return (
    <li
      className="flex items-center gap-3 text-xs text-muted-foreground before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border"
      data-testid="versions-gap"
    >
      {text}
    </li>
  );
}

type RowProps = {
  appId: string;
  version: VersionSummary;
  previewVersionId: string | null;
  onPreview: (versionId: string | null) => void;
  onGoToMessage: (messageId: string) => void;
  onCompare: (versionId: string) => void;
  onHistory: (path: string) => void;
};

function VersionRow({
  appId,
  version,
  previewVersionId,
  onPreview,
  onGoToMessage,
  onCompare,
  onHistory,
}: RowProps) {
  const [showFiles, setShowFiles] = useState(false);
  const filesId = useId();
  const previewing = previewVersionId === version.id;
  const title = fillTemplate(messages.versionsNumber, { n: version.number });
  return (
    <li
      className={cn(
        "grid gap-1.5 rounded-md border border-border p-3",
        version.isCurrent && "border-primary/50 bg-muted/40",
      )}
      data-version-number={version.number}
      aria-current={version.isCurrent ? "true" : undefined}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h3 className="text-sm font-medium">{title}</h3>
        {version.isCurrent ? <Badge tone="positive">{messages.versionsCurrent}</Badge> : null}
        <span className="ml-auto text-xs text-muted-foreground">{versionDate(version.createdAt)}</span>
      </div>
      <p className="line-clamp-3 text-sm break-words">{versionText(version)}</p>
      <div className="flex flex-wrap items-center gap-1">
        {version.messageId ? (
          <Button
            size="sm"
            variant="ghost"
            className="h-7 px-2"
            onClick={() => onGoToMessage(version.messageId!)}
          >
            <MessageSquareIcon aria-hidden />
            {messages.versionsGoToMessage}
          </Button>
        ) : null}
        {version.isCurrent ? null : (
          <Button
            size="sm"
            variant={previewing ? "secondary" : "ghost"}
            className="h-7 px-2"
            aria-pressed={previewing}
            title={messages.chatPreviewHint}
            onClick={() => onPreview(previewing ? null : version.id)}
          >
            <EyeIcon aria-hidden />
            {previewing ? messages.versionPreviewing : messages.versionPreview}
          </Button>
        )}
        {version.isCurrent ? null : (
          <Button size="sm" variant="ghost" className="h-7 px-2" onClick={() => onCompare(version.id)}>
            <GitCompareArrowsIcon aria-hidden />
            {messages.compareWithCurrent}
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          className="h-7 px-2"
          aria-expanded={showFiles}
          aria-controls={showFiles ? filesId : undefined}
          onClick={() => setShowFiles((s) => !s)}
        >
          <ChevronRightIcon aria-hidden className={cn("transition-transform", showFiles && "rotate-90")} />
          {messages.versionsChangedFiles}
        </Button>
      </div>
      {showFiles ? (
        <ChangedFiles id={filesId} appId={appId} versionId={version.id} onHistory={onHistory} />
      ) : null}
    </li>
  );
}

type Files =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "ready"; changes: { path: string; status: ChangeStatus }[] };

/** The files a version changed, in the all-changes dialog's order, each with its History. */
function ChangedFiles({
  id,
  appId,
  versionId,
  onHistory,
}: {
  id: string;
  appId: string;
  versionId: string;
  onHistory: (path: string) => void;
}) {
  const [files, setFiles] = useState<Files>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads after a failure
  useEffect(() => {
    let live = true;
    setFiles({ state: "loading" });
    fetchVersionDetail(appId, versionId, { files: "none" }).then(
      (detail) =>
        live &&
        setFiles({
          state: "ready",
          changes: orderChanges(detail.changes).map((c) => ({
            path: c.path,
            status: c.status as ChangeStatus,
          })),
        }),
      () => live && setFiles({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [appId, versionId, attempt]);

  return (
    <div id={id} className="grid gap-1 border-t border-border pt-2 text-sm">
      {files.state === "loading" ? (
        <LoadingLine text={messages.diffLoading} />
      ) : files.state === "failed" ? (
        <div className="flex flex-wrap items-center gap-2" role="alert">
          <p>{messages.diffLoadFailed}</p>
          <Button size="sm" variant="outline" className="h-7 px-2" onClick={() => setAttempt((n) => n + 1)}>
            <RotateCcwIcon aria-hidden />
            {messages.retry}
          </Button>
        </div>
      ) : files.changes.length === 0 ? (
        <p className="text-muted-foreground">{messages.diffNoChanges}</p>
      ) : (
        <ul className="grid gap-0.5" aria-label={messages.versionsChangedFiles}>
          {files.changes.map((c) => (
            <li key={c.path} className="flex items-center gap-2" data-path={c.path}>
              <StatusLetter status={c.status} className="w-3" />
              <span
                className={cn(
                  "min-w-0 flex-1 font-mono text-xs break-all",
                  c.status === "deleted" && "line-through",
                )}
              >
                {c.path}
              </span>
              <FileHistoryButton path={c.path} onOpen={onHistory} variant="ghost" className="shrink-0" />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
