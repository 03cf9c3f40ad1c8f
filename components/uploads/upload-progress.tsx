"use client";

import { dataSourcesMessages } from "@/lib/messages/data-sources";
import { fillTemplate } from "@/lib/text";

/** A file upload's progress bar with its percentage, as the screen reader hears it too. */
export function UploadProgress({ percent }: { percent: number }) {
  const text = fillTemplate(dataSourcesMessages.dataSourceUploading, { percent });
  return (
    <div className="grid gap-1">
      <div
        role="progressbar"
        aria-label={dataSourcesMessages.dataSourceUploadProgress}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground" aria-hidden="true">
        {text}
      </p>
    </div>
  );
}
