import type * as React from "react";

/** An empty list's place: what is missing, what to do next, and the button that does it. */
export function EmptyState({
  title,
  text,
  action,
}: {
  title: string;
  text: string;
  action?: React.ReactNode;
}) {
  return (
    <div
      data-slot="empty-state"
      className="grid justify-items-center gap-3 rounded-lg border border-dashed border-border px-6 py-12 text-center"
    >
      <h2 className="font-medium">{title}</h2>
      <p className="max-w-md text-sm text-muted-foreground">{text}</p>
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
