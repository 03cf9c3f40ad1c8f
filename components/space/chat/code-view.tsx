"use client";

import { useMemo } from "react";
import { messages } from "@/lib/messages";
import { splitLines } from "@/lib/space/line-diff";

/**
 * The code viewer: a file read-only, with line numbers that are not
 * selected with the code (a copy takes the code alone). Long lines scroll sideways inside the box.
 */
export function CodeView({ code, label }: { code: string; label: string }) {
  const lines = useMemo(() => splitLines(code), [code]);
  if (lines.length === 0) return <p className="text-sm text-muted-foreground">{messages.diffEmptyFile}</p>;
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling code is reached by keyboard to scroll it
      tabIndex={0}
      data-testid="code-view"
      className="max-h-[50vh] overflow-auto rounded-md border border-border font-mono text-xs leading-5 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:max-h-[60vh]"
    >
      <div className="grid w-max min-w-full grid-cols-[auto_1fr]">
        <pre
          aria-hidden
          className="sticky left-0 bg-muted px-2 py-2 text-right text-muted-foreground select-none"
        >
          {lines.map((_, i) => i + 1).join("\n")}
        </pre>
        <pre className="px-3 py-2">
          <code>{lines.join("\n")}</code>
        </pre>
      </div>
    </section>
  );
}
