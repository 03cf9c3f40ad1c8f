"use client";

import { EyeIcon, EyeOffIcon } from "lucide-react";
import dynamic from "next/dynamic";
import { useSearchParams } from "next/navigation";
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { CtaPanel } from "@/components/editor/cta-panel";
import { PanelHeading } from "@/components/editor/panel-parts";
import { ResultsLayoutPanel } from "@/components/editor/results-layout-panel";
import { SaveConflictDialog } from "@/components/editor/save-conflict-dialog";
import { SaveErrors, SaveIndicator } from "@/components/editor/save-status";
import { TextsPanel } from "@/components/editor/texts-panel";
import { useSaveGuard, useToolSaver } from "@/components/editor/use-record-saver";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { ImageUploadField } from "@/components/uploads/image-upload-field";
import type { EditorApp, ToolView } from "@/lib/apps/editor-app";
import type { AppContent } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { fillTemplate } from "@/lib/plans/text";
import { cn } from "@/lib/utils";
import { ExploreToolsButton } from "./explore-tools-button";
import { toolName } from "./tool-api";
import { ToolPagesHeader } from "./tool-pages-header";
import { ToolPathField, toolPathError } from "./tool-path-field";
import { activationRefusal } from "./tool-status-rules";

// Heavy parts load when needed, as in the app editor: the fields panel (drag and drop) and the
// public page of the preview.
function Loading() {
  return (
    <div className="grid gap-3" role="status">
      <span className="sr-only">{messages.editorPanelLoading}</span>
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}
const FieldsPanel = dynamic(
  () => import("@/components/editor/fields/fields-panel").then((m) => m.FieldsPanel),
  {
    ssr: false,
    loading: Loading,
  },
);
const PublicAppView = dynamic(
  () => import("@/components/public-app/public-app-view").then((m) => m.PublicAppView),
  { ssr: false, loading: () => <Skeleton className="h-full min-h-96 w-full rounded-none" /> },
);

const SECTIONS = ["texts", "fields", "results-layout", "call-to-action", "page"] as const;
type Section = (typeof SECTIONS)[number];
const sectionLabel: Record<Section, string> = {
  texts: messages.editorMenuToolTexts,
  fields: messages.editorMenuFields,
  "results-layout": messages.editorMenuResultsLayout,
  "call-to-action": messages.editorMenuCta,
  page: messages.toolPageSection,
};

/** The section in the URL (?panel=fields), so a reload or a shared link opens the same one. */
function showSection(section: Section) {
  const url = new URL(window.location.href);
  if (section === "texts") url.searchParams.delete("panel");
  else url.searchParams.set("panel", section);
  window.history.pushState(null, "", url);
}

export type ToolEditorProps = {
  app: Pick<EditorApp, "appId" | "status" | "style" | "settings" | "ownerPlan" | "watermarkHidden"> & {
    header: string;
  };
  tool: ToolView;
  /** The paths of the app's other tools: a path must be unique among them. */
  otherPaths: string[];
  /** The signed-in builder is an admin. */
  isAdmin: boolean;
};

/**
 * /build/app/{appId}/tool/{toolId}: one tool of a generated app. Its texts, instructions, fields,
 * results layout, call to action, path, thumbnail and status are one record, saved by the
 * editor's tool saver (debounced, on its revision, 409 shown as a conflict, failures kept and
 * retried), with the tool's public page previewed beside it.
 */
export function ToolEditor({ app, tool: initialTool, otherPaths, isAdmin }: ToolEditorProps) {
  const { appId } = app;
  const { toolId } = initialTool;
  const ids = useId();
  const tool = useToolSaver(appId, initialTool);
  const savers = useMemo(() => [tool], [tool]);
  useSaveGuard(savers);
  const caps = getPlanCapabilities(app.ownerPlan);
  const value = tool.value;
  const edit = tool.edit as (patch: Partial<AppContent>) => void;

  const requested = useSearchParams().get("panel");
  const section: Section = SECTIONS.includes(requested as Section) ? (requested as Section) : "texts";
  const [previewOnPhone, setPreviewOnPhone] = useState(false);

  // ---- status: the change is saved at once; a refusal puts the switch back and says why ----
  const statusChange = useRef(false);
  const setActive = async (active: boolean) => {
    if (active && !value.header.trim()) {
      toast.error(messages.toolNeedsHeader);
      return;
    }
    statusChange.current = true;
    tool.edit({ status: active ? "active" : "draft" });
    if (await tool.flush()) {
      statusChange.current = false;
      const name = toolName(value.header, messages.untitledTool);
      toast.success(fillTemplate(active ? messages.toolActivated : messages.toolDeactivated, { name }));
    }
  };
  const error = tool.state.error;
  useEffect(() => {
    if (!statusChange.current || error?.kind !== "rule") return;
    const refusal = activationRefusal(error.message);
    if (!refusal) return; // another edit was refused: SaveErrors says which
    statusChange.current = false;
    tool.revert(["status"]);
    toast.error(
      error.message,
      refusal === "liveTools"
        ? {
            action: {
              label: messages.toolsUpgrade,
              onClick: () => openUpgradeDialog({ reason: "liveTools", appId }),
            },
          }
        : undefined,
    );
  }, [error, tool, appId]);

  // ---- path: what breaks the rule stays here, marked, and is not sent ----
  const [invalidPath, setInvalidPath] = useState<string | null>(null);
  const onPath = (path: string) => {
    if (toolPathError(path, otherPaths)) return setInvalidPath(path);
    setInvalidPath(null);
    tool.edit({ path });
  };

  const rules = useMemo(
    () => ({
      isAdmin,
      maxCustomFields: caps.maxCustomFields,
      photoFields: caps.photoFields,
      isSignupEnabled: app.settings.appSettings.isSignupEnabled,
      aiQueryMethod: app.settings.appSettings.aiQueryMethod,
      firstLoad: false,
    }),
    [isAdmin, caps.maxCustomFields, caps.photoFields, app.settings.appSettings],
  );

  let body: ReactNode;
  switch (section) {
    case "texts":
      body = (
        <TextsPanel value={value} onChange={edit} variant="tool" title={messages.editorTextsToolTitle} />
      );
      break;
    case "fields":
      body = (
        <FieldsPanel
          appId={appId}
          toolId={toolId}
          value={{
            fields: value.fields,
            inputSteps: value.inputSteps,
            isMultiStepInput: value.isMultiStepInput,
            gptPrompt: value.gptPrompt,
          }}
          onChange={edit}
          ctx={rules}
          ownerPlan={app.ownerPlan}
        />
      );
      break;
    case "results-layout":
      body = <ResultsLayoutPanel value={value} onChange={edit} />;
      break;
    case "call-to-action":
      body = <CtaPanel value={value} onChange={edit} />;
      break;
    case "page":
      body = (
        <div className="grid gap-6">
          <PanelHeading title={messages.toolPageSection} description={messages.toolPageSectionDescription} />
          <ToolPathField
            id={`${ids}-path`}
            appId={appId}
            value={invalidPath ?? value.path}
            error={invalidPath === null ? null : toolPathError(invalidPath, otherPaths)}
            onChange={onPath}
          />
          <ImageUploadField
            label={messages.toolThumbnail}
            description={messages.toolThumbnailHint}
            value={value.imageUrl}
            appId={appId}
            kind="thumb"
            toolId={toolId}
            onChange={(imageUrl) => tool.edit({ imageUrl })}
          />
        </div>
      );
      break;
  }

  const active = value.status === "active";
  return (
    <div className="flex flex-1 flex-col lg:h-[calc(100dvh-3rem)] lg:min-h-0 lg:flex-none">
      <div className="sticky top-12 z-[5] grid gap-2 border-b border-border bg-background px-4 py-2 lg:static">
        <ToolPagesHeader appId={appId} appName={app.header}>
          <ExploreToolsButton appId={appId} variant="ghost" />
        </ToolPagesHeader>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <h1 className="w-full min-w-0 truncate text-base font-semibold sm:w-auto sm:flex-1">
            {toolName(value.header, messages.untitledTool)}
          </h1>
          <SaveIndicator savers={savers} published={app.status === "active" && active} />
          <div className="flex items-center gap-2">
            <Switch
              id={`${ids}-active`}
              checked={active}
              aria-describedby={`${ids}-active-hint`}
              onCheckedChange={(checked) => void setActive(checked)}
            />
            <Label htmlFor={`${ids}-active`}>{messages.toolStatusActive}</Label>
            <span id={`${ids}-active-hint`} className="sr-only">
              {messages.toolActiveHint}
            </span>
          </div>
          <Button
            variant="outline"
            size="sm"
            className="lg:hidden"
            aria-pressed={previewOnPhone}
            onClick={() => setPreviewOnPhone((v) => !v)}
          >
            {previewOnPhone ? <EyeOffIcon aria-hidden /> : <EyeIcon aria-hidden />}
            {messages.editorPreview}
          </Button>
        </div>
        <SaveErrors savers={savers} />
      </div>

      <div className="flex-1 lg:grid lg:min-h-0 lg:grid-cols-[minmax(22rem,30rem)_minmax(0,1fr)] lg:grid-rows-[minmax(0,1fr)]">
        <div
          className={cn(
            "grid min-w-0 content-start gap-4 p-4 lg:overflow-y-auto lg:border-r lg:border-border",
            previewOnPhone && "hidden lg:grid",
          )}
        >
          <nav aria-label={messages.toolEditorSections}>
            <ul className="flex flex-wrap gap-1">
              {SECTIONS.map((s) => (
                <li key={s}>
                  <Button
                    variant={s === section ? "secondary" : "ghost"}
                    size="sm"
                    aria-current={s === section ? "page" : undefined}
                    onClick={() => showSection(s)}
                  >
                    {sectionLabel[s]}
                  </Button>
                </li>
              ))}
            </ul>
          </nav>
          {body}
        </div>
        <div className={cn("p-4 lg:flex lg:min-h-0", previewOnPhone ? "flex h-[80dvh]" : "hidden")}>
          <section aria-labelledby={`${ids}-preview`} className="flex h-full min-h-0 w-full flex-col gap-2">
            <div className="flex items-baseline justify-between gap-2 px-1">
              <h2 id={`${ids}-preview`} className="text-sm font-semibold">
                {messages.editorPreviewLabel}
              </h2>
              <p className="text-xs text-muted-foreground">{messages.editorPreviewHint}</p>
            </div>
            <div className="min-h-0 flex-1 overflow-auto rounded-lg border border-border shadow-sm">
              <PublicAppView
                mode="preview"
                page="tool"
                appId={appId}
                appType="generated"
                appHeader={app.header}
                content={value}
                style={app.style.appStyle}
                watermarkHidden={app.watermarkHidden}
              />
            </div>
          </section>
        </div>
      </div>

      <SaveConflictDialog saver={tool} />
    </div>
  );
}
