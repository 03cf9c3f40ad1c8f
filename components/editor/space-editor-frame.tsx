"use client";

import {
  BlocksIcon,
  CodeIcon,
  DatabaseIcon,
  type LucideIcon,
  ServerCogIcon,
  SettingsIcon,
  SparklesIcon,
} from "lucide-react";
import { useSearchParams } from "next/navigation";
import { type ReactNode, type Ref, useCallback, useMemo, useRef, useState } from "react";
import { EditorShell } from "@/components/editor/editor-frame";
import type { MenuEntry, PanelName } from "@/components/editor/panel-menu";
import type { SaverView } from "@/components/editor/use-record-saver";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { AskChatContext } from "@/components/space/chat/ask-chat";
import type { ChatAssistantState } from "@/components/space/chat/chat-api";
import { ChatAssistantControl } from "@/components/space/chat/chat-assistant-control";
import { FilesChangedContext } from "@/components/space/chat/files-changed";
import { fixRequest, IssuesPanel } from "@/components/space/chat/issues-panel";
import { SpaceChat } from "@/components/space/chat/space-chat";
import { useSpaceChat } from "@/components/space/chat/use-space-chat";
import { ValidationTester } from "@/components/space/chat/validation-tester";
import { VersionsButton } from "@/components/space/chat/versions-button";
import { VersionPreview } from "@/components/space/version-preview";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import type { PreviewIssue } from "@/lib/space/preview/types";
import { cn } from "@/lib/utils";

const icons: Partial<Record<PanelName, LucideIcon>> = {
  details: BlocksIcon,
  database: DatabaseIcon,
  code: CodeIcon,
  functions: ServerCogIcon,
  settings: SettingsIcon,
};

/**
 * The editor of a space app: the App chat beside the preview of the
 * app's current version, or of the version being previewed. The menu of the space app (App
 * details, Database, App settings) sits above the chat; an open panel takes the chat's place
 * and the chat stays mounted under it, so an answer keeps streaming. Below 1024 px the toolbar's
 * Preview toggle switches between the chat and the preview.
 */
export function SpaceEditorFrame({
  appId,
  isAdmin,
  toolbar,
  savers,
  previewOnPhone,
  panelRef,
  panel,
  menu,
  onOpenPanel,
  onClosePanel,
  chatAssistant,
}: {
  appId: string;
  isAdmin: boolean;
  toolbar: ReactNode;
  savers: readonly SaverView[];
  previewOnPhone: boolean;
  panelRef?: Ref<HTMLDivElement>;
  /** The open panel, or null for the chat (the "main" panel of a space app). */
  panel: ReactNode | null;
  menu: MenuEntry[];
  onOpenPanel: (panel: Exclude<PanelName, "main">) => void;
  /** Back to the chat (the open panel closes). */
  onClosePanel: () => void;
  chatAssistant: ChatAssistantState | null;
}) {
  const params = useSearchParams();
  const target = useMemo(
    () => ({ messageId: params.get("messageId"), preview: params.get("preview") === "true" }),
    [params],
  );
  const chat = useSpaceChat({ appId, target });
  const [draft, setDraft] = useState("");
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const [issues, setIssues] = useState<PreviewIssue[]>([]);
  // The preview of the version on show is being built or loaded: a fix is not judged before it is done.
  const [previewLoading, setPreviewLoading] = useState(true);

  const sendToChat = chat.send;
  const askChat = useCallback(
    (text: string) => {
      const sent = sendToChat(text, false);
      if (sent) onClosePanel();
      return sent;
    },
    [sendToChat, onClosePanel],
  );

  const onFix = useCallback((issue: PreviewIssue) => {
    setDraft(fixRequest(issue));
    requestAnimationFrame(() => composerRef.current?.focus());
  }, []);

  const previewing = chat.previewVersionId !== null;
  // The whole conversation is loaded and no message made a version: the app has no files yet.
  const noFilesYet =
    !previewing &&
    chat.phase === "ready" &&
    !chat.hasMore &&
    chat.currentVersionId === null &&
    !chat.streaming;
  return (
    <EditorShell toolbar={toolbar} savers={savers}>
      <div
        ref={panelRef}
        className={cn(
          "flex h-[calc(100dvh-9rem)] min-h-[26rem] min-w-0 flex-col lg:h-auto lg:min-h-0 lg:border-r lg:border-border",
          previewOnPhone && "hidden lg:flex",
          panel && "h-auto lg:overflow-y-auto",
        )}
      >
        {panel ? (
          <div className="grid min-w-0 content-start gap-4 p-4">
            <AskChatContext.Provider value={askChat}>
              <FilesChangedContext.Provider value={chat.refreshHead}>{panel}</FilesChangedContext.Provider>
            </AskChatContext.Provider>
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-2 border-b border-border px-3 py-2">
            <SpaceMenu appId={appId} entries={menu} onOpen={onOpenPanel} />
            <div className="ml-auto flex items-center gap-1">
              <VersionsButton appId={appId} chat={chat} />
              <ChatAssistantControl appId={appId} initial={chatAssistant} />
            </div>
          </div>
        )}
        <section
          aria-label={messages.chatRegion}
          className={cn("flex min-h-0 flex-1 flex-col", panel && "hidden")}
        >
          <SpaceChat
            appId={appId}
            isAdmin={isAdmin}
            chat={chat}
            draft={draft}
            onDraft={setDraft}
            composerRef={composerRef}
          />
        </section>
      </div>

      <section
        aria-label={messages.chatPreviewTitle}
        className={cn(
          "relative flex-col lg:flex lg:min-h-0",
          previewOnPhone ? "flex h-[calc(100dvh-9rem)] min-h-[26rem]" : "hidden",
        )}
      >
        {previewing ? (
          <div className="flex flex-wrap items-center gap-2 border-b border-border bg-muted/50 px-4 py-2 text-sm">
            <span className="font-medium">{messages.chatPreviewingEarlier}</span>
            <Button
              size="sm"
              variant="outline"
              className="ml-auto"
              onClick={() => chat.setPreviewVersionId(null)}
            >
              {messages.chatPreviewCurrent}
            </Button>
          </div>
        ) : null}
        <div className="relative min-h-0 flex-1">
          {noFilesYet ? (
            <p className="flex h-full items-center justify-center p-6 text-center text-sm text-muted-foreground">
              {messages.chatPreviewEmpty}
            </p>
          ) : (
            <VersionPreview
              // The current files change with every answer, restore or revert: a new version, a new frame.
              key={previewing ? chat.previewVersionId : `current-${chat.currentVersionId ?? "none"}`}
              appId={appId}
              versionId={chat.previewVersionId}
              onIssues={setIssues}
              onLoadingChange={setPreviewLoading}
              className="h-full w-full"
            />
          )}
          {/* The admin's validate tester above the floating issues panel, in one column: never over each other. */}
          <div className="pointer-events-none absolute right-3 bottom-3 left-3 z-10 flex flex-col items-end gap-2 *:pointer-events-auto">
            {isAdmin && !noFilesYet && (chat.previewVersionId ?? chat.currentVersionId) ? (
              <ValidationTester
                key={chat.previewVersionId ?? chat.currentVersionId}
                appId={appId}
                versionId={(chat.previewVersionId ?? chat.currentVersionId)!}
                previewIssues={issues}
                onApplied={chat.merged}
              />
            ) : null}
            <IssuesPanel
              issues={issues}
              loading={chat.busy || (previewLoading && !noFilesYet)}
              onFix={onFix}
            />
          </div>
        </div>
      </section>
    </EditorShell>
  );
}

/**
 * The space app's panels (App details, Database, Functions, App settings) as a compact row above
 * the chat; a disabled entry offers the upgrade that lifts it.
 */
function SpaceMenu({
  appId,
  entries,
  onOpen,
}: {
  appId: string;
  entries: MenuEntry[];
  onOpen: (panel: Exclude<PanelName, "main">) => void;
}) {
  return (
    <nav aria-label={messages.editorPanels}>
      <ul className="flex flex-wrap gap-0.5">
        {entries.map((entry) => {
          if (entry.type === "link") return null;
          const Icon = icons[entry.panel] ?? BlocksIcon;
          if (entry.disabledReason) {
            return (
              <li key={entry.panel}>
                <Button
                  variant="ghost"
                  size="sm"
                  data-panel={entry.panel}
                  title={messages[entry.disabledReason]}
                  onClick={() => entry.upgrade && openUpgradeDialog({ reason: "toolSettings", appId })}
                  aria-disabled={!entry.upgrade || undefined}
                  className="px-2 text-muted-foreground"
                >
                  {entry.upgrade ? (
                    <SparklesIcon aria-hidden />
                  ) : (
                    <Icon aria-hidden className="max-sm:hidden" />
                  )}
                  {entry.label}
                </Button>
              </li>
            );
          }
          return (
            <li key={entry.panel}>
              <Button
                variant="ghost"
                size="sm"
                className="px-2"
                data-panel={entry.panel}
                onClick={() => onOpen(entry.panel)}
              >
                <Icon aria-hidden className="max-sm:hidden" />
                {entry.label}
              </Button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
