"use client";

import {
  BlocksIcon,
  ChevronRightIcon,
  CodeIcon,
  DatabaseIcon,
  FileTextIcon,
  LayoutListIcon,
  type LucideIcon,
  MegaphoneIcon,
  MessagesSquareIcon,
  PaletteIcon,
  ServerCogIcon,
  SettingsIcon,
  SparklesIcon,
  TextCursorInputIcon,
  TypeIcon,
  WrenchIcon,
} from "lucide-react";
import Link from "next/link";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import type { MenuEntry, PanelName } from "./panel-menu";

const icons: Record<Exclude<PanelName, "main">, LucideIcon> = {
  texts: TypeIcon,
  branding: PaletteIcon,
  fields: TextCursorInputIcon,
  "results-layout": LayoutListIcon,
  "call-to-action": MegaphoneIcon,
  "data-sources": FileTextIcon,
  settings: SettingsIcon,
  chat: MessagesSquareIcon,
  details: BlocksIcon,
  database: DatabaseIcon,
  code: CodeIcon,
  functions: ServerCogIcon,
};

const row =
  "flex w-full items-center gap-3 rounded-lg border border-border px-4 py-3 text-left text-sm font-medium transition-colors";

/**
 * The main panel: the menu of the app's panels (buttons that open a panel in place and put its
 * name in the URL), links that leave the editor (App tools), and disabled entries with the reason
 * and the way out (the upgrade dialog).
 */
export function PanelMenuView({
  appId,
  entries,
  onOpen,
}: {
  appId: string;
  entries: MenuEntry[];
  onOpen: (panel: Exclude<PanelName, "main">) => void;
}) {
  return (
    <nav aria-label={messages.editorPanels} className="grid gap-3">
      <p className="text-sm text-muted-foreground">{messages.editorMenuHint}</p>
      <ul className="grid gap-2">
        {entries.map((entry) => {
          if (entry.type === "link") {
            return (
              <li key={entry.href}>
                <Link
                  href={entry.href}
                  className={`${row} hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring`}
                >
                  <WrenchIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <span className="flex-1">{entry.label}</span>
                  <ChevronRightIcon aria-hidden className="size-4 text-muted-foreground" />
                </Link>
              </li>
            );
          }
          const Icon = icons[entry.panel];
          if (entry.disabledReason) {
            return (
              <li key={entry.panel}>
                <div className={`${row} flex-wrap bg-muted/40`} data-panel={entry.panel}>
                  <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <span className="grid flex-1 gap-0.5">
                    <span className="text-muted-foreground">{entry.label}</span>
                    <span className="text-xs font-normal text-muted-foreground">
                      {messages[entry.disabledReason]}
                    </span>
                  </span>
                  {entry.upgrade ? (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => openUpgradeDialog({ reason: "toolSettings", appId })}
                    >
                      <SparklesIcon aria-hidden />
                      {messages.editorUpgrade}
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          }
          return (
            <li key={entry.panel}>
              <button
                type="button"
                data-panel={entry.panel}
                className={`${row} hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring`}
                onClick={() => onOpen(entry.panel)}
              >
                <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                <span className="flex-1">{entry.label}</span>
                <ChevronRightIcon aria-hidden className="size-4 text-muted-foreground" />
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
