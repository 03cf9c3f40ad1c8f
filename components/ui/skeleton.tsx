import type * as React from "react";
import { cn } from "@/lib/utils";

/** A loading placeholder; hidden from screen readers, which get the region's own busy state. */
export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden
      className={cn("animate-pulse rounded-md bg-muted motion-reduce:animate-none", className)}
      {...props}
    />
  );
}
