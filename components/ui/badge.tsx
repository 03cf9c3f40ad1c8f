import type * as React from "react";
import { cn } from "@/lib/utils";

const tones = {
  /** Live: published, active. */
  positive: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  /** Not live: draft, not published. */
  muted: "bg-muted text-muted-foreground",
} as const;

/** A short status word in a pill (Published, Draft, Active). */
export function Badge({
  tone = "muted",
  className,
  ...props
}: React.ComponentProps<"span"> & { tone?: keyof typeof tones }) {
  return (
    <span
      data-slot="badge"
      className={cn("rounded-full px-2 py-0.5 text-xs font-medium", tones[tone], className)}
      {...props}
    />
  );
}
