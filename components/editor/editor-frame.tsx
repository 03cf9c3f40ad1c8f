"use client";

import { EyeIcon, EyeOffIcon } from "lucide-react";
import { type ReactNode, type Ref, useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import type { FieldRuleContext } from "@/lib/apps/field-rules";
import type { AppSettings } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { cn } from "@/lib/utils";
import { SaveConflictDialog } from "./save-conflict-dialog";
import { SaveErrors } from "./save-status";
import type { SaverView } from "./use-record-saver";

// The frame the app editor and the tool editor share: the toolbar with the save errors under
// it, the panel beside the preview from 1024 px (a toggle on phones), the conflict dialogs of
// the savers, and the small pieces both need (loading panel, ?panel= in the URL, field rules).

/** What a lazily loaded panel shows while its code arrives. */
export function PanelLoading() {
  return (
    <div className="grid gap-3" role="status">
      <span className="sr-only">{messages.editorPanelLoading}</span>
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

/**
 * Puts the open panel in the URL (?panel=fields) without a server round trip, so a reload or a
 * shared link opens the same one and back and forward work; the default panel has no parameter.
 */
export function showPanelInUrl(panel: string, defaultPanel: string) {
  const url = new URL(window.location.href);
  if (panel === defaultPanel) url.searchParams.delete("panel");
  else url.searchParams.set("panel", panel);
  window.history.pushState(null, "", url);
}

/** The rules the fields panel checks edits against: the builder, the owner's plan, the settings. */
export function useFieldRules(
  isAdmin: boolean,
  ownerPlan: string,
  settings: Pick<AppSettings, "isSignupEnabled" | "aiQueryMethod">,
): FieldRuleContext & { firstLoad: boolean } {
  const { maxCustomFields, photoFields } = getPlanCapabilities(ownerPlan);
  const { isSignupEnabled, aiQueryMethod } = settings;
  return useMemo(
    () => ({
      isAdmin,
      maxCustomFields,
      photoFields,
      isSignupEnabled,
      aiQueryMethod,
      firstLoad: false, // the account is known from the first byte: the server rendered the page
    }),
    [isAdmin, maxCustomFields, photoFields, isSignupEnabled, aiQueryMethod],
  );
}

/** Below 1024 px the preview takes the panel's place while this is pressed. */
export function PreviewToggle({ pressed, onToggle }: { pressed: boolean; onToggle: () => void }) {
  return (
    <Button variant="outline" size="sm" className="lg:hidden" aria-pressed={pressed} onClick={onToggle}>
      {pressed ? <EyeOffIcon aria-hidden /> : <EyeIcon aria-hidden />}
      {messages.editorPreview}
    </Button>
  );
}

export function EditorFrame({
  toolbar,
  savers,
  previewOnPhone,
  panelRef,
  panel,
  preview,
}: {
  toolbar: ReactNode;
  savers: readonly SaverView[];
  previewOnPhone: boolean;
  panelRef?: Ref<HTMLDivElement>;
  panel: ReactNode;
  preview: ReactNode;
}) {
  return (
    <EditorShell toolbar={toolbar} savers={savers}>
      <div
        ref={panelRef}
        className={cn(
          "grid min-w-0 content-start gap-4 p-4 lg:overflow-y-auto lg:border-r lg:border-border",
          previewOnPhone && "hidden lg:grid",
        )}
      >
        {panel}
      </div>
      <div className={cn("p-4 lg:flex lg:min-h-0", previewOnPhone ? "flex h-[80dvh]" : "hidden")}>
        {preview}
      </div>
    </EditorShell>
  );
}

/**
 * What every editor has around its two columns (the panel, then the preview beside it from
 * 1024 px): the toolbar with the saves' errors over them, and each save's conflict dialog.
 */
export function EditorShell({
  toolbar,
  savers,
  children,
}: {
  toolbar: ReactNode;
  savers: readonly SaverView[];
  children: ReactNode;
}) {
  return (
    <div className="flex flex-1 flex-col lg:h-[calc(100dvh-3rem)] lg:min-h-0 lg:flex-none">
      <div className="sticky top-12 z-[5] grid gap-2 border-b border-border bg-background px-4 py-2 lg:static">
        {toolbar}
        <SaveErrors savers={savers} />
      </div>
      <div className="flex-1 lg:grid lg:min-h-0 lg:grid-cols-[minmax(22rem,30rem)_minmax(0,1fr)] lg:grid-rows-[minmax(0,1fr)]">
        {children}
      </div>
      {savers.map((saver) => (
        <SaveConflictDialog key={saver.kind} saver={saver} />
      ))}
    </div>
  );
}
