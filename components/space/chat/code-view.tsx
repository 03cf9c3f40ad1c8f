"use client";

import dynamic from "next/dynamic";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";

// CodeMirror loads with the first file shown, not with the chat.
const CodeEditor = dynamic(() => import("@/components/code-editor/code-editor").then((m) => m.CodeEditor), {
  ssr: false,
  loading: () => <LoadingLine text={messages.codeLoading} />,
});

/**
 * The code viewer: a file read-only in the Code panel's editor (CodeMirror: its language's
 * colours, line numbers a copy leaves out, keyboard scrolling and selection), within a box that
 * scrolls.
 */
export function CodeView({ code, label, path }: { code: string; label: string; path: string }) {
  if (code === "") return <p className="text-sm text-muted-foreground">{messages.diffEmptyFile}</p>;
  return (
    // min-w-0: in the dialog's grid a long line scrolls inside the editor instead of widening the dialog.
    <section aria-label={label} data-testid="code-view" className="min-w-0 max-w-full overflow-hidden">
      <CodeEditor
        path={path}
        value={code}
        readOnly
        label={label}
        className="w-full [&_.cm-editor]:max-h-[50vh] md:[&_.cm-editor]:max-h-[60vh]"
      />
    </section>
  );
}
