"use client";

import { AlertTriangleIcon, LoaderCircleIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { messages } from "@/lib/messages";
import {
  PREVIEW_MESSAGE,
  PREVIEW_SANDBOX,
  type PreviewAnswer,
  type PreviewIssue,
} from "@/lib/space/preview/types";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { readFrameIssues } from "./preview-messages";
import { useRuntimeBridge } from "./use-runtime-bridge";

// The preview of one version of a space app, in a sandboxed frame. The frame's document is
// served with a CSP sandbox too, and framed here with the same sandbox: no allow-same-origin, so
// the app cannot read the builder's cookies or call our API as the builder. What it reports
// (its errors) reaches the editor by postMessage, accepted from this frame's window only; its data
// client gets the builder's app token from here (useRuntimeBridge), so the preview's data calls
// run as the app's admin.

type Props = {
  appId: string;
  /** The version to show; null: the app's current files. */
  versionId: string | null;
  /** The full list of the preview's app errors, each time it changes ([] when a version starts loading). */
  onIssues?: (issues: PreviewIssue[]) => void;
  /** Whether the version is still being built or its frame loaded: a fix is judged once it is not. */
  onLoadingChange?: (loading: boolean) => void;
  className?: string;
};

type State =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "build-failed"; issues: PreviewIssue[] }
  | { status: "ready"; url: string; title: string; shown: boolean };

export function VersionPreview({ appId, versionId, onIssues, onLoadingChange, className }: Props) {
  const [state, setState] = useState<State>({ status: "loading" });
  const frame = useRef<HTMLIFrameElement>(null);
  const report = useRef(onIssues);
  report.current = onIssues;
  useRuntimeBridge(frame, appId, "preview");

  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    report.current?.([]);
    const path = `/api/apps/${appId}/versions/${versionId ?? "current"}/preview`;
    apiFetch<PreviewAnswer>(path).then(
      (answer) => {
        if (!live) return;
        if (!answer.build.ok) {
          setState({ status: "build-failed", issues: answer.build.issues });
          report.current?.(answer.build.issues);
          return;
        }
        const title =
          versionId === null
            ? messages.previewFrameTitleCurrent
            : fillTemplate(messages.previewFrameTitle, { number: answer.versionNumber });
        setState({ status: "ready", url: answer.url, title, shown: false });
      },
      (err: unknown) => {
        if (!live) return;
        // The server's reason when it gave one (no files yet, no such version), else the spec's.
        const message =
          err instanceof ApiError && err.status < 500 && err.status > 0
            ? err.message
            : messages.previewFailed;
        setState({ status: "failed", message });
      },
    );
    return () => {
      live = false;
    };
  }, [appId, versionId]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // The frame's origin is opaque ("null"): it is known by its window, never by its origin.
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const data = event.data as { type?: unknown; issues?: unknown } | null;
      if (!data || typeof data !== "object") return;
      if (data.type === PREVIEW_MESSAGE.issues) report.current?.(readFrameIssues(data));
      if (data.type === PREVIEW_MESSAGE.ready || data.type === PREVIEW_MESSAGE.issues) {
        setState((s) => (s.status === "ready" && !s.shown ? { ...s, shown: true } : s));
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  const loading = state.status === "loading" || (state.status === "ready" && !state.shown);
  const reportLoading = useRef(onLoadingChange);
  reportLoading.current = onLoadingChange;
  useEffect(() => reportLoading.current?.(loading), [loading]);
  return (
    <div className={cn("relative h-full w-full overflow-hidden bg-background", className)}>
      {state.status === "ready" && (
        <iframe
          ref={frame}
          key={state.url}
          src={state.url}
          title={state.title}
          sandbox={PREVIEW_SANDBOX}
          referrerPolicy="no-referrer"
          className="h-full w-full border-0 bg-white"
          data-testid="version-preview-frame"
          onLoad={() => setState((s) => (s.status === "ready" && !s.shown ? { ...s, shown: true } : s))}
        />
      )}
      {loading && (
        <div
          role="status"
          className="absolute inset-0 flex items-center justify-center gap-2 bg-background text-sm text-muted-foreground"
        >
          <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />
          {messages.previewLoading}
        </div>
      )}
      {state.status === "failed" && (
        <div
          role="alert"
          className="flex h-full items-center justify-center gap-2 p-6 text-sm text-destructive"
        >
          <AlertTriangleIcon aria-hidden className="size-4 shrink-0" />
          {state.message}
        </div>
      )}
      {state.status === "build-failed" && <BuildErrors issues={state.issues} />}
    </div>
  );
}

function BuildErrors({ issues }: { issues: PreviewIssue[] }) {
  return (
    <div role="alert" className="h-full overflow-auto p-4 text-sm">
      <p className="flex items-center gap-2 font-medium text-destructive">
        <AlertTriangleIcon aria-hidden className="size-4 shrink-0" />
        {messages.previewBuildFailed}
      </p>
      <ul className="mt-3 space-y-3">
        {issues.map((issue, i) => (
          // Issues have no id; the list is replaced whole, never reordered.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i} className="rounded-md border border-destructive/30 bg-destructive/5 p-3">
            <p className="font-medium">
              {issue.componentName ? `${issue.componentName}: ` : ""}
              {issue.title}
            </p>
            {issue.details && (
              <pre className="mt-2 overflow-x-auto whitespace-pre-wrap text-xs text-muted-foreground">
                {issue.details}
              </pre>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
