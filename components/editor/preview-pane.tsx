"use client";

import dynamic from "next/dynamic";
import type { PublicAppViewProps } from "@/components/public-app/public-app-view";
import { Skeleton } from "@/components/ui/skeleton";
import { messages } from "@/lib/messages";
import { cn } from "@/lib/utils";

// The public page, drawn from the editor's unsaved state, beside the panels. Loaded after the
// editor itself (it is the heaviest part and the panel is what the builder reaches for first).
const PublicAppView = dynamic(
  () => import("@/components/public-app/public-app-view").then((m) => m.PublicAppView),
  {
    ssr: false,
    loading: () => <Skeleton className="h-full min-h-96 w-full rounded-none" />,
  },
);

/** What the public page shows (an app's main page, or a tool page of a generated app); no live-page parts. */
export type PreviewPaneProps = Omit<PublicAppViewProps, "mode" | "draft" | "headerRight"> & {
  className?: string;
};

/** The publish state is on the editor's toolbar, so the preview leaves out the draft banner. */
export function PreviewPane({ className, ...view }: PreviewPaneProps) {
  return (
    <section aria-labelledby="editor-preview-title" className={cn("flex min-h-0 flex-col gap-2", className)}>
      <div className="flex items-baseline justify-between gap-2 px-1">
        <h2 id="editor-preview-title" className="text-sm font-semibold">
          {messages.editorPreviewLabel}
        </h2>
        <p className="text-xs text-muted-foreground">{messages.editorPreviewHint}</p>
      </div>
      <div
        className="min-h-0 flex-1 overflow-auto rounded-lg border border-border shadow-sm"
        data-testid="editor-preview"
      >
        <PublicAppView {...view} mode="preview" />
      </div>
    </section>
  );
}
