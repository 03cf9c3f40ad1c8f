import { CircleAlertIcon, CircleCheckIcon, ClockIcon, GaugeIcon, LoaderCircleIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { type StatusTone, statusDisplay } from "./item-format";

// Each tone keeps AA contrast in light and dark; the icon says the same as the word, for those
// who do not tell the colours apart.
const toneClass: Record<StatusTone, string> = {
  pending: "",
  syncing: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
  synced: "",
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  limit: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  unknown: "",
};

const icons = {
  pending: ClockIcon,
  syncing: LoaderCircleIcon,
  synced: CircleCheckIcon,
  error: CircleAlertIcon,
  limit: GaugeIcon,
  unknown: null,
} as const;

/** An item's status as the builder reads it: Pending, Syncing..., Synced, Error, Usage limit reached, Unknown. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  const { label, tone } = statusDisplay(status);
  const Icon = icons[tone];
  return (
    <Badge
      tone={tone === "synced" ? "positive" : "muted"}
      data-status={status}
      className={cn("inline-flex shrink-0 items-center gap-1 whitespace-nowrap", toneClass[tone], className)}
    >
      {Icon ? (
        <Icon
          aria-hidden="true"
          className={cn("size-3", tone === "syncing" && "animate-spin motion-reduce:animate-none")}
        />
      ) : null}
      {label}
    </Badge>
  );
}
