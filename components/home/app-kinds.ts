import { LayoutGridIcon, type LucideIcon, MessagesSquareIcon, WrenchIcon } from "lucide-react";
import type { AppType } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";

/** The three kinds of app (tool, generated app, space app), as the home page and the create dialog name them. */
export const APP_KINDS: readonly { type: AppType; label: string; hint: string; icon: LucideIcon }[] = [
  { type: "tool", label: messages.appKindTool, hint: messages.appKindToolHint, icon: WrenchIcon },
  {
    type: "generated",
    label: messages.appKindGenerated,
    hint: messages.appKindGeneratedHint,
    icon: LayoutGridIcon,
  },
  { type: "space", label: messages.appKindSpace, hint: messages.appKindSpaceHint, icon: MessagesSquareIcon },
];

export function appKind(type: AppType) {
  return APP_KINDS.find((k) => k.type === type) ?? APP_KINDS[0]!;
}

/** One app on /home, as GET /api/apps answers it. */
export type HomeApp = {
  appId: string;
  header: string;
  appType: AppType;
  status: "active" | "draft";
  toolsCount: number;
  updatedAt: string;
};

export const appName = (header: string) => header.trim() || messages.untitledApp;
