"use client";

import dynamic from "next/dynamic";
import { useSearchParams } from "next/navigation";
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { CtaPanel } from "@/components/editor/cta-panel";
import {
  EditorFrame,
  PanelLoading,
  PreviewToggle,
  showPanelInUrl,
  useFieldRules,
} from "@/components/editor/editor-frame";
import { PanelHeading } from "@/components/editor/panel-parts";
import { PreviewPane } from "@/components/editor/preview-pane";
import { ResultsLayoutPanel } from "@/components/editor/results-layout-panel";
import { SaveIndicator } from "@/components/editor/save-status";
import { TextsPanel } from "@/components/editor/texts-panel";
import { useSaveGuard, useToolSaver } from "@/components/editor/use-record-saver";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { ImageUploadField } from "@/components/uploads/image-upload-field";
import type { EditorApp, ToolView } from "@/lib/apps/editor-app";
import type { AppContent } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { ExploreToolsButton } from "./explore-tools-button";
import { toolName } from "./tool-api";
import { ToolPagesHeader } from "./tool-pages-header";
import { ToolPathField, toolPathError } from "./tool-path-field";
import { activationRefusal } from "./tool-status-rules";

// The fields panel (drag and drop) loads when opened, as in the app editor.
const FieldsPanel = dynamic(
  () => import("@/components/editor/fields/fields-panel").then((m) => m.FieldsPanel),
  { ssr: false, loading: PanelLoading },
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

const showSection = (section: Section) => showPanelInUrl(section, "texts");

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

  const rules = useFieldRules(isAdmin, app.ownerPlan, app.settings.appSettings);

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
  const toolbar = (
    <>
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
        <PreviewToggle pressed={previewOnPhone} onToggle={() => setPreviewOnPhone((v) => !v)} />
      </div>
    </>
  );
  return (
    <EditorFrame
      toolbar={toolbar}
      savers={savers}
      previewOnPhone={previewOnPhone}
      panel={
        <>
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
        </>
      }
      preview={
        <PreviewPane
          className="h-full w-full"
          page="tool"
          appId={appId}
          appType="generated"
          appHeader={app.header}
          content={value}
          style={app.style.appStyle}
          watermarkHidden={app.watermarkHidden}
        />
      }
    />
  );
}
