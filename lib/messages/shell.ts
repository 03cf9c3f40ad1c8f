// The app shell and shared UI. Part of the catalogue in lib/messages/index.ts.
export const shellMessages = {
  // App shell and shared UI (our own wording)
  productName: "Builder",
  close: "Close",
  cancel: "Cancel",
  confirm: "Confirm",
  toggleSidebar: "Toggle sidebar",
  mainNavigation: "Main navigation",
  sidebar: "Sidebar",
  accountMenu: "Account menu",
  planLabel: "Plan",
  adminBadge: "Admin",
  themeLabel: "Colour theme",
  themeLight: "Light",
  themeDark: "Dark",
  themeSystem: "System",
} as const;
