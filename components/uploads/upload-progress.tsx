"use client";

import { ProgressBar } from "@/components/ui/progress-bar";
import { dataSourcesMessages } from "@/lib/messages/data-sources";
import { fillTemplate } from "@/lib/text";

/** A file upload's progress bar with its percentage, as the screen reader hears it too. */
export function UploadProgress({ percent }: { percent: number }) {
  const text = fillTemplate(dataSourcesMessages.dataSourceUploading, { percent });
  return (
    <div className="grid gap-1">
      <ProgressBar label={dataSourcesMessages.dataSourceUploadProgress} percent={percent} text={text} />
      <p className="text-xs text-muted-foreground" aria-hidden="true">
        {text}
      </p>
    </div>
  );
}
