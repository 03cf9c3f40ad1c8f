"use client";

import { type AppContent, RESULTS_LAYOUTS } from "@/lib/apps/schemas";
import { type MessageKey, messages } from "@/lib/messages";
import { cn } from "@/lib/utils";
import { PanelHeading } from "./panel-parts";

type Layout = (typeof RESULTS_LAYOUTS)[number];

export type ResultsLayoutPanelProps = {
  value: Pick<AppContent, "resultsLayout">;
  onChange: (patch: Partial<AppContent>) => void;
};

const text: Record<Layout, { label: MessageKey; hint: MessageKey }> = {
  text: { label: "editorResultsText", hint: "editorResultsTextHint" },
  cards: { label: "editorResultsCards", hint: "editorResultsCardsHint" },
  list: { label: "editorResultsList", hint: "editorResultsListHint" },
};

/** Results layout: text, cards or list, picked from small drawings of each (native radios). */
export function ResultsLayoutPanel({ value, onChange }: ResultsLayoutPanelProps) {
  return (
    <div className="grid gap-6">
      <PanelHeading title={messages.editorResultsTitle} description={messages.editorResultsDescription} />
      <fieldset className="grid gap-3">
        <legend className="sr-only">{messages.editorResultsTitle}</legend>
        {RESULTS_LAYOUTS.map((layout) => {
          const checked = value.resultsLayout === layout;
          return (
            <label
              key={layout}
              className={cn(
                "flex cursor-pointer items-center gap-4 rounded-lg border border-border p-3 transition-colors hover:bg-accent has-focus-visible:ring-2 has-focus-visible:ring-ring",
                checked && "border-primary bg-accent",
              )}
            >
              <input
                type="radio"
                name="results-layout"
                value={layout}
                checked={checked}
                onChange={() => onChange({ resultsLayout: layout })}
                className="size-4 shrink-0 accent-primary"
              />
              <LayoutDrawing layout={layout} />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{messages[text[layout].label]}</span>
                <span className="text-xs text-muted-foreground">{messages[text[layout].hint]}</span>
              </span>
            </label>
          );
        })}
      </fieldset>
    </div>
  );
}

/** A small sketch of the layout (decorative: the label says it). */
function LayoutDrawing({ layout }: { layout: Layout }) {
  const bar = "rounded-sm bg-muted-foreground/40";
  return (
    <span aria-hidden className="grid h-14 w-20 shrink-0 rounded-md border border-border bg-background p-1.5">
      {layout === "text" ? (
        <span className="grid content-start gap-1">
          <span className={cn(bar, "h-1.5 w-full")} />
          <span className={cn(bar, "h-1.5 w-11/12")} />
          <span className={cn(bar, "h-1.5 w-full")} />
          <span className={cn(bar, "h-1.5 w-2/3")} />
        </span>
      ) : layout === "cards" ? (
        <span className="grid grid-cols-2 gap-1">
          {[0, 1, 2, 3].map((i) => (
            <span key={i} className="rounded-sm border border-muted-foreground/40 p-0.5">
              <span className={cn(bar, "block h-1 w-3/4")} />
            </span>
          ))}
        </span>
      ) : (
        <span className="grid content-start gap-1">
          {[0, 1, 2].map((i) => (
            <span key={i} className="flex items-center gap-1">
              <span className="size-2 rounded-full bg-muted-foreground/40" />
              <span className={cn(bar, "h-1.5 flex-1")} />
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
