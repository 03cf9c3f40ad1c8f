"use client";

import { ExternalLinkIcon, LoaderCircleIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

export type PublishStatus = "active" | "draft";

/**
 * Publish / unpublish (POST /api/apps/{appId}/status) and, while published, a link that opens
 * the public page in a new tab. Pending edits are saved first, so what goes live is what the
 * builder sees.
 */
export function PublishControl({
  appId,
  status,
  onStatus,
  beforePublish,
}: {
  appId: string;
  status: PublishStatus;
  onStatus: (status: PublishStatus) => void;
  beforePublish: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const published = status === "active";

  const toggle = async () => {
    const next: PublishStatus = published ? "draft" : "active";
    setBusy(true);
    try {
      if (next === "active") await beforePublish();
      const saved = await apiFetch<{ status: PublishStatus }>(`/api/apps/${appId}/status`, {
        method: "POST",
        body: { status: next },
      });
      onStatus(saved.status);
      toast.success(
        saved.status === "active" ? messages.editorPublishedToast : messages.editorUnpublishedToast,
      );
    } catch (err) {
      // A refusal says why; anything else is the spec's 'Failed to save app'.
      const refused = err instanceof ApiError && err.status >= 400 && err.status < 500;
      toast.error(refused ? err.message : messages.saveAppFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex shrink-0 items-center gap-2">
      {published ? (
        <Button asChild variant="outline" size="sm">
          <a
            href={`/app/${appId}`}
            target="_blank"
            rel="noopener"
            aria-label={messages.editorOpenPublicPageNewTab}
            data-testid="open-public-page"
          >
            <ExternalLinkIcon aria-hidden />
            <span className="hidden sm:inline">{messages.editorOpenPublicPage}</span>
          </a>
        </Button>
      ) : null}
      <Button
        size="sm"
        variant={published ? "outline" : "default"}
        onClick={() => void toggle()}
        disabled={busy}
        aria-busy={busy}
      >
        {busy ? <LoaderCircleIcon aria-hidden className="animate-spin" /> : null}
        {busy
          ? published
            ? messages.editorUnpublishing
            : messages.editorPublishing
          : published
            ? messages.editorUnpublish
            : messages.editorPublish}
      </Button>
    </div>
  );
}
