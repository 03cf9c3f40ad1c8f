"use client";

import type { ReactNode } from "react";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import { FileDiff } from "./file-diff";
import type { Sides } from "./use-file-sides";

/** The selected file's diff once its two sides are read; while they are, a loading line; failed, the dialog's message and Retry. */
export function FileSidesDiff({
  sides,
  retry,
  failedText,
  actions,
}: {
  sides: Sides;
  retry: () => void;
  failedText: string;
  actions?: ReactNode;
}) {
  if (sides.state === "ready") return <FileDiff file={sides.file} actions={actions} />;
  if (sides.state === "loading") return <LoadingLine text={messages.diffLoading} />;
  return <LoadFailed text={failedText} onRetry={retry} />;
}
