import { messages } from "@/lib/messages";

/** Active (live on the app's page) or Draft. */
export function ToolStatusBadge({ status }: { status: "active" | "draft" }) {
  return status === "active" ? (
    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
      {messages.toolStatusActive}
    </span>
  ) : (
    <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">
      {messages.toolStatusDraft}
    </span>
  );
}
