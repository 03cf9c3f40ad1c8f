"use client";

import { CircleAlertIcon, CircleCheckIcon, CircleDashedIcon, LoaderCircleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import type { SaverView } from "./use-record-saver";

type Watched = SaverView;

/**
 * The editor's save indicator: 'Saving...' while an edit waits or is in
 * flight, then 'Published' or 'Not published'; 'Not saved' while a save failed or waits for the
 * builder's choice (SaveErrors and the conflict dialog say why).
 */
export function SaveIndicator({ savers, published }: { savers: readonly Watched[]; published: boolean }) {
  const failed = savers.some((s) => s.state.error || s.state.conflict);
  const dirty = savers.some((s) => s.state.dirty);
  const [Icon, text, tone] = failed
    ? [CircleAlertIcon, messages.editorNotSaved, "text-destructive"]
    : dirty
      ? [LoaderCircleIcon, messages.publishSaving, "text-muted-foreground"]
      : published
        ? [CircleCheckIcon, messages.publishPublished, "text-foreground"]
        : [CircleDashedIcon, messages.publishNotPublished, "text-muted-foreground"];
  return (
    <p
      role="status"
      className={cn("flex shrink-0 items-center gap-1.5 text-sm", tone)}
      data-testid="save-indicator"
    >
      <Icon aria-hidden className={cn("size-4", dirty && !failed && "animate-spin")} />
      {text}
    </p>
  );
}

/**
 * What went wrong with a save, until it is fixed: the spec's message for the record (a network
 * error or 5xx, retried on its own and with Try again) or the server's message for a refused
 * edit, which stays until the builder changes it.
 */
export function SaveErrors({ savers }: { savers: readonly Watched[] }) {
  const failing = savers.filter((s) => s.state.error && !s.state.conflict);
  if (failing.length === 0) return null;
  return (
    <div className="grid gap-2">
      {failing.map((saver) => {
        const error = saver.state.error;
        if (!error) return null;
        return (
          <div
            key={saver.kind}
            role="alert"
            className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive"
          >
            <CircleAlertIcon aria-hidden className="size-4 shrink-0" />
            <span className="min-w-0 flex-1 font-medium">
              {error.kind === "rule"
                ? fillTemplate(messages.editorSaveRefused, { message: error.message })
                : error.message}
            </span>
            {error.kind === "transient" ? (
              <Button variant="outline" size="sm" className="text-foreground" onClick={saver.retryNow}>
                {messages.retry}
              </Button>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
