"use client";

import dynamic from "next/dynamic";
import { useSearchParams } from "next/navigation";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import type { ChatAssistantState } from "@/components/space/chat/chat-api";
import type { EditorApp } from "@/lib/apps/editor-app";
import type { AppContent } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { CtaPanel } from "./cta-panel";
import { EditorFrame, PanelLoading, PreviewToggle, showPanelInUrl, useFieldRules } from "./editor-frame";
import { type PanelName, panelMenu, resolvePanel } from "./panel-menu";
import { PanelMenuView } from "./panel-menu-view";
import { BackToMenu, LaterPanel } from "./panel-parts";
import { PreviewPane } from "./preview-pane";
import { PublishControl, type PublishStatus } from "./publish-control";
import { ResultsLayoutPanel } from "./results-layout-panel";
import { SaveIndicator } from "./save-status";
import { TextsPanel } from "./texts-panel";
import { ExploreToolsButton } from "./tools/explore-tools-button";
import { useAppSaver, useSaveGuard, useSettingsSaver, useStyleSaver } from "./use-record-saver";

// The heavy panels (drag and drop, colour pickers, model lists) load when opened, so the editor
// itself stays light (heavy parts are loaded lazily).
const FieldsPanel = dynamic(() => import("./fields/fields-panel").then((m) => m.FieldsPanel), {
  ssr: false,
  loading: PanelLoading,
});
const BrandingPanel = dynamic(() => import("./branding/branding-panel").then((m) => m.BrandingPanel), {
  ssr: false,
  loading: PanelLoading,
});
const SettingsPanel = dynamic(() => import("./settings/settings-panel").then((m) => m.SettingsPanel), {
  ssr: false,
  loading: PanelLoading,
});
// A space app's editor is its chat beside the preview (components/space/chat), in its own chunk.
const SpaceEditorFrame = dynamic(() =>
  import("@/components/editor/space-editor-frame").then((m) => m.SpaceEditorFrame),
);
const DatabasePanel = dynamic(() => import("./database/database-panel").then((m) => m.DatabasePanel), {
  ssr: false,
  loading: PanelLoading,
});
// CodeMirror and its languages load with the Code panel only.
const CodePanel = dynamic(() => import("./code/code-panel").then((m) => m.CodePanel), {
  ssr: false,
  loading: PanelLoading,
});
const FunctionsPanel = dynamic(() => import("./functions/functions-panel").then((m) => m.FunctionsPanel), {
  ssr: false,
  loading: PanelLoading,
});
const DataSourcesPanel = dynamic(
  () => import("./data-sources/data-sources-panel").then((m) => m.DataSourcesPanel),
  { ssr: false, loading: PanelLoading },
);

export type AppEditorProps = {
  app: EditorApp;
  /** The signed-in builder is an admin (not the owner's flag: admins may edit others' apps). */
  isAdmin: boolean;
  /** A space app's chat assistant (active or draft), for the 'Activate Your Chat Assitant!' modal. */
  chatAssistant?: ChatAssistantState | null;
};

const showPanel = (panel: PanelName) => showPanelInUrl(panel, "main");

/**
 * The app editor at /build/app/{appId}: the panel menu of the app's kind, the panel
 * named in the URL (?panel=texts), the saving of the app's content, style and settings records,
 * the publish control and, beside the panel from 1024 px (a toggle on phones), the public page as
 * it will look with the unsaved edits.
 */
export function AppEditor({ app, isAdmin, chatAssistant = null }: AppEditorProps) {
  const { appId, appType, ownerPlan } = app;
  const content = useAppSaver(appId, { revision: app.revision, value: app.app });
  const style = useStyleSaver(appId, app.style);
  const settings = useSettingsSaver(appId, app.settings);
  const savers = useMemo(() => [content, style, settings], [content, style, settings]);
  useSaveGuard(savers);

  const [status, setStatus] = useState<PublishStatus>(app.status);
  const [previewOnPhone, setPreviewOnPhone] = useState(false);
  const caps = getPlanCapabilities(ownerPlan);

  const menu = useMemo(
    () => panelMenu({ appType, appId, isAdmin, ownerPlan }),
    [appType, appId, isAdmin, ownerPlan],
  );
  const panel = resolvePanel(menu, useSearchParams().get("panel"));
  const label = (name: PanelName) => {
    const entry = menu.find((e) => e.type === "panel" && e.panel === name);
    return entry?.label ?? "";
  };

  // Focus follows the panel: its heading when one opens, the menu entry when going back.
  const panelRef = useRef<HTMLDivElement>(null);
  const previous = useRef<PanelName>(panel);
  useEffect(() => {
    const from = previous.current;
    previous.current = panel;
    if (from === panel) return;
    const root = panelRef.current;
    if (!root) return;
    root.scrollTo?.({ top: 0 });
    const focusTarget = () => {
      // The panel's heading, not one of the space app's chat, which stays mounted (hidden) under it.
      const target =
        panel === "main"
          ? root.querySelector<HTMLElement>(`[data-panel="${from}"]`)
          : [...root.querySelectorAll<HTMLElement>("h2")].find((h) => h.getClientRects().length > 0);
      if (!target) return false;
      if (panel !== "main") target.tabIndex = -1;
      target.focus();
      return true;
    };
    if (focusTarget()) return;
    // A lazily loaded panel (fields, branding, settings) has no heading until its code arrives;
    // meanwhile the menu button that opened it is gone and focus fell to the body. The heading
    // gets it when it appears, unless the builder has put focus somewhere else by then.
    const observer = new MutationObserver(() => {
      const active = document.activeElement;
      if (active && active !== document.body && !root.contains(active)) observer.disconnect();
      else if (focusTarget()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [panel]);

  const rules = useFieldRules(isAdmin, ownerPlan, settings.value);

  const editContent = content.edit as (patch: Partial<AppContent>) => void;
  const onDone = async () => {
    if (!(await settings.flush()))
      throw new Error(settings.state.error?.message ?? messages.saveSettingsFailed);
  };

  let body: ReactNode;
  switch (panel) {
    case "main":
      body = <PanelMenuView appId={appId} entries={menu} onOpen={showPanel} />;
      break;
    case "texts":
      body = (
        <TextsPanel
          value={content.value}
          onChange={editContent}
          variant={appType === "generated" ? "hub" : "tool"}
          title={label("texts")}
          description={appType === "generated" ? messages.editorTextsHubDescription : undefined}
        />
      );
      break;
    case "details":
      body = (
        <TextsPanel
          value={content.value}
          onChange={editContent}
          variant="hub"
          title={messages.editorDetailsTitle}
          description={messages.editorDetailsDescription}
        />
      );
      break;
    case "branding":
      body = (
        <BrandingPanel
          appId={appId}
          value={style.value}
          onChange={style.edit}
          isAdmin={isAdmin}
          watermarkDefaultHidden={caps.hideWatermarkByDefault}
        />
      );
      break;
    case "fields":
      body = (
        <FieldsPanel
          appId={appId}
          value={{
            fields: content.value.fields,
            inputSteps: content.value.inputSteps,
            isMultiStepInput: content.value.isMultiStepInput,
            gptPrompt: content.value.gptPrompt,
          }}
          onChange={editContent}
          ctx={rules}
          ownerPlan={ownerPlan}
        />
      );
      break;
    case "results-layout":
      body = <ResultsLayoutPanel value={content.value} onChange={editContent} />;
      break;
    case "call-to-action":
      body = <CtaPanel value={content.value} onChange={editContent} />;
      break;
    case "settings":
      body = (
        <SettingsPanel
          appId={appId}
          appType={appType}
          status={status}
          value={settings.value}
          onChange={settings.edit}
          isAdmin={isAdmin}
          ownerPlan={ownerPlan}
          onDone={onDone}
        />
      );
      break;
    case "data-sources":
      body = <DataSourcesPanel appId={appId} ownerPlan={ownerPlan} title={messages.editorDataSourcesTitle} />;
      break;
    case "database":
      body = <DatabasePanel appId={appId} />;
      break;
    case "code":
      body = <CodePanel appId={appId} />;
      break;
    case "functions":
      body = <FunctionsPanel appId={appId} published={status === "active"} />;
      break;
    case "chat":
      body = <LaterPanel title={messages.editorChatTitle} text={messages.editorChatLater} />;
      break;
  }

  const watermarkHidden = style.value.hideBuildAI ?? caps.hideWatermarkByDefault;
  const tools = useMemo(
    () =>
      app.tools
        .filter((t) => t.status === "active")
        .map((t) => ({ title: t.title, path: t.path, imageUrl: t.imageUrl })),
    [app.tools],
  );

  const toolbar = (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <h1 className="w-full truncate text-base font-semibold sm:w-auto sm:min-w-0 sm:flex-1">
        {content.value.header || messages.untitledApp}
      </h1>
      <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto sm:gap-4">
        <SaveIndicator savers={savers} published={status === "active"} />
        <div className="ml-auto flex items-center gap-2">
          <PreviewToggle pressed={previewOnPhone} onToggle={() => setPreviewOnPhone((v) => !v)} />
          {appType === "generated" && <ExploreToolsButton appId={appId} className="hidden sm:inline-flex" />}
          <PublishControl
            appId={appId}
            status={status}
            onStatus={setStatus}
            beforePublish={() => Promise.all(savers.map((s) => s.flush()))}
          />
        </div>
      </div>
    </div>
  );
  if (appType === "space") {
    // The chat is the space app's main view; the other panels open in its place.
    return (
      <SpaceEditorFrame
        appId={appId}
        isAdmin={isAdmin}
        toolbar={toolbar}
        savers={savers}
        previewOnPhone={previewOnPhone}
        panelRef={panelRef}
        panel={
          panel === "main" ? null : (
            <>
              <BackToMenu onBack={() => showPanel("main")} />
              {body}
            </>
          )
        }
        menu={menu}
        onOpenPanel={showPanel}
        onClosePanel={() => showPanel("main")}
        chatAssistant={chatAssistant}
      />
    );
  }
  return (
    <EditorFrame
      toolbar={toolbar}
      savers={savers}
      previewOnPhone={previewOnPhone}
      panelRef={panelRef}
      panel={
        <>
          {panel !== "main" ? <BackToMenu onBack={() => showPanel("main")} /> : null}
          {body}
        </>
      }
      preview={
        <PreviewPane
          className="h-full w-full"
          appId={appId}
          appType={appType}
          content={content.value}
          style={style.value}
          watermarkHidden={watermarkHidden}
          tools={tools}
          mainPage={settings.value.mainPage}
        />
      }
    />
  );
}
