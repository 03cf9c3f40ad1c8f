import type { AppType } from "@/lib/apps/schemas";
import { type MessageKey, messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";

// The editor's panel menu by app kind, free of React so the rules can be tested:
// - Single-tool app: Tool texts, App branding, Custom fields, Results layout, Call to action,
//   Data sources, Tool settings.
// - Generated app: App texts, App branding, App tools, App settings (admins, moon and above),
//   App chat (admins only).
// - Space app: App details, Database, Code, Functions, App settings.
// - Chat mode: only a Data sources entry.
// "Settings panel is disabled when the plan is lite or there is no app id": the plan
// is the app owner's, as on the server; an admin may always edit (the server lets them).

/** Panels by the name used in the URL (?panel=texts); "main" is the menu itself. */
export const PANEL_NAMES = [
  "main",
  "texts",
  "branding",
  "fields",
  "results-layout",
  "call-to-action",
  "data-sources",
  "settings",
  "chat",
  "details",
  "database",
  "code",
  "functions",
] as const;
export type PanelName = (typeof PANEL_NAMES)[number];

export type MenuEntry =
  | {
      type: "panel";
      panel: Exclude<PanelName, "main">;
      label: string;
      /** Why the entry cannot be opened (shown beside it), or null when it can. */
      disabledReason: MessageKey | null;
      /** The plan lifts the limit: offer the upgrade dialog. */
      upgrade: boolean;
    }
  | { type: "link"; label: string; href: string };

export type MenuContext = {
  appType: AppType;
  appId: string | undefined;
  isAdmin: boolean;
  /** The app owner's plan. */
  ownerPlan: string;
  /** The chat-mode editor of a chat assistant: only its data sources. */
  chatMode?: boolean;
};

function settingsEntry(ctx: MenuContext, label: string): MenuEntry {
  const mayEdit = ctx.isAdmin || getPlanCapabilities(ctx.ownerPlan).editToolSettings;
  const disabledReason: MessageKey | null = !ctx.appId
    ? "editorNoAppId"
    : mayEdit
      ? null
      : "upgradeToEditToolSettings";
  return { type: "panel", panel: "settings", label, disabledReason, upgrade: !!ctx.appId && !mayEdit };
}

const panel = (name: Exclude<PanelName, "main">, label: string): MenuEntry => ({
  type: "panel",
  panel: name,
  label,
  disabledReason: null,
  upgrade: false,
});

export function panelMenu(ctx: MenuContext): MenuEntry[] {
  if (ctx.chatMode) return [panel("data-sources", messages.editorMenuDataSources)];
  switch (ctx.appType) {
    case "tool":
      return [
        panel("texts", messages.editorMenuToolTexts),
        panel("branding", messages.editorMenuBranding),
        panel("fields", messages.editorMenuFields),
        panel("results-layout", messages.editorMenuResultsLayout),
        panel("call-to-action", messages.editorMenuCta),
        panel("data-sources", messages.editorMenuDataSources),
        settingsEntry(ctx, messages.editorMenuToolSettings),
      ];
    case "generated": {
      const entries: MenuEntry[] = [
        panel("texts", messages.editorMenuAppTexts),
        panel("branding", messages.editorMenuBranding),
        { type: "link", label: messages.editorMenuAppTools, href: `/build/app/${ctx.appId}/tools` },
      ];
      if (ctx.isAdmin || getPlanCapabilities(ctx.ownerPlan).generatedAppSettings) {
        entries.push(settingsEntry(ctx, messages.editorMenuAppSettings));
      }
      if (ctx.isAdmin) entries.push(panel("chat", messages.editorMenuAppChat));
      return entries;
    }
    case "space":
      return [
        panel("details", messages.editorMenuAppDetails),
        panel("database", messages.editorMenuDatabase),
        // Everyone reads the code; only admins edit it (the panel and the server say so).
        panel("code", messages.editorMenuCode),
        panel("functions", messages.editorMenuFunctions),
        settingsEntry(ctx, messages.editorMenuAppSettings),
      ];
  }
}

/**
 * The panel a URL asks for, when this menu offers it and it can be opened; else the menu. A
 * shared link to a panel the visitor may not open (another plan, not an admin) shows the menu.
 */
export function resolvePanel(menu: readonly MenuEntry[], requested: string | null | undefined): PanelName {
  const entry = menu.find((e) => e.type === "panel" && e.panel === requested);
  return entry && entry.type === "panel" && entry.disabledReason === null ? entry.panel : "main";
}
