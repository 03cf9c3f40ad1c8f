"use client";

import { AlertTriangleIcon, CheckCircle2Icon, ChevronDownIcon, WandSparklesIcon, XIcon } from "lucide-react";
import { useEffect, useId, useReducer } from "react";
import { Button } from "@/components/ui/button";
import { ISSUES_LIST_MAX_HEIGHT_PX, ISSUES_MINIMIZE_DELAY_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { PreviewIssue } from "@/lib/space/preview/types";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { initialIssues, issueKey, issuesReducer, visibleIssues } from "./issues-state";

const countText = (n: number) =>
  n === 1 ? messages.issuesCountOne : fillTemplate(messages.issuesCount, { n });

/** The request the composer gets from "Ask to fix". */
export function fixRequest(issue: PreviewIssue): string {
  return fillTemplate(messages.issuesFixPrompt, {
    where: issue.componentName
      ? fillTemplate(messages.issuesFixWhere, { component: issue.componentName })
      : "",
    title: issue.title,
    // A stack names the preview's address, whose query holds its signed token: not for the model.
    details: issue.details.replace(/(https?:\/\/[^\s?#]+)\?[^\s#)]*/g, "$1"),
  }).trim();
}

/**
 * The floating issues panel at the bottom right of the preview: the preview's
 * build and runtime errors, minimized to a count or expanded to a list (100 px high at most),
 * each dismissable or handed to the composer as a fix request.
 */
export function IssuesPanel({
  issues,
  loading,
  onFix,
  className,
}: {
  issues: PreviewIssue[];
  /** The chat is answering or the preview is loading: a fix is judged once it ends. */
  loading: boolean;
  onFix: (issue: PreviewIssue) => void;
  className?: string;
}) {
  const [state, dispatch] = useReducer(issuesReducer, initialIssues);
  const listId = useId();
  useEffect(() => dispatch({ type: "issues", issues }), [issues]);
  useEffect(() => {
    if (!state.fixed || loading) return;
    const timer = setTimeout(() => dispatch({ type: "settle" }), ISSUES_MINIMIZE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.fixed, loading]);

  const shown = visibleIssues(state);
  if (shown.length === 0) {
    if (!state.fixed) return null;
    return (
      <div
        role="status"
        className={cn(
          "flex items-center gap-2 rounded-lg border border-border bg-background px-3 py-2 text-sm shadow-lg",
          className,
        )}
      >
        <CheckCircle2Icon aria-hidden className="size-4 text-emerald-700 dark:text-emerald-400" />
        {messages.issuesFixed}
      </div>
    );
  }

  return (
    <section
      aria-label={messages.issuesTitle}
      className={cn(
        "w-[min(22rem,calc(100%-1rem))] rounded-lg border border-destructive/50 bg-background text-sm shadow-lg",
        className,
      )}
    >
      {/* The name starts with the visible count (WCAG 2.5.3 label in name); what the click does follows. */}
      <button
        type="button"
        aria-expanded={state.expanded}
        aria-controls={listId}
        onClick={() => dispatch({ type: "toggle" })}
        className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <AlertTriangleIcon aria-hidden className="size-4 text-destructive" />
        <span className="flex-1">{countText(shown.length)}</span>
        <span className="sr-only"> {state.expanded ? messages.issuesMinimize : messages.issuesShow}</span>
        <ChevronDownIcon
          aria-hidden
          className={cn("size-4 transition-transform", state.expanded ? "" : "rotate-180")}
        />
      </button>
      <ul
        id={listId}
        hidden={!state.expanded}
        className="grid grid-cols-[minmax(0,1fr)] gap-2 overflow-y-auto border-t border-border px-3 py-2"
        style={{ maxHeight: ISSUES_LIST_MAX_HEIGHT_PX }}
      >
        {shown.map((issue) => {
          const key = issueKey(issue);
          return (
            // min-w-0 and overflow-wrap:anywhere: a stack's long URLs wrap instead of widening the panel.
            <li key={key} className="grid min-w-0 gap-1">
              <div className="flex items-start gap-2">
                <p className="min-w-0 flex-1 font-medium [overflow-wrap:anywhere]">
                  <span className="mr-1 rounded bg-muted px-1 text-xs text-muted-foreground">
                    {issue.source === "build" ? messages.issuesBuild : messages.issuesRuntime}
                  </span>
                  {issue.componentName ? `${issue.componentName}: ` : ""}
                  {issue.title}
                </p>
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2"
                  onClick={() => onFix(issue)}
                  title={messages.issuesFix}
                >
                  <WandSparklesIcon aria-hidden />
                  <span className="sr-only sm:not-sr-only">{messages.issuesFix}</span>
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={fillTemplate(messages.issuesDismissOne, { title: issue.title })}
                  onClick={() => dispatch({ type: "suppress", key })}
                >
                  <XIcon aria-hidden />
                </Button>
              </div>
              {issue.details ? (
                <p className="text-xs whitespace-pre-wrap text-muted-foreground [overflow-wrap:anywhere]">
                  {issue.details}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
