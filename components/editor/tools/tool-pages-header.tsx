import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import type * as React from "react";
import { messages } from "@/lib/messages";

/** The top of the tools collection and of a tool's editor: back to the app's editor, the app's name. */
export function ToolPagesHeader({
  appId,
  appName,
  children,
}: {
  appId: string;
  appName: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <Link
        href={`/build/app/${appId}`}
        className="inline-flex min-w-0 items-center gap-1.5 rounded-sm text-sm text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeftIcon aria-hidden="true" className="size-4 shrink-0" />
        <span className="truncate">
          {messages.backToEditor}
          <span className="text-muted-foreground"> · {appName}</span>
        </span>
      </Link>
      {children}
    </div>
  );
}
