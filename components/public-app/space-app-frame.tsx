"use client";

import { useRef } from "react";
import { useRuntimeBridge } from "@/components/space/use-runtime-bridge";
import { PREVIEW_SANDBOX } from "@/lib/space/preview/types";

/**
 * A published space app's own code, in the same sandboxed frame as the editor's preview (no
 * origin of its own, no cookie of ours), filling the page under its header. Its data client gets
 * the viewer's app token from this page, and its sign-in and sign-out lead to the app's pages
 * (or, on a draft only its builder sees, say that the preview runs as the builder).
 */
export function SpaceAppFrame({
  appId,
  url,
  title,
  published,
}: {
  appId: string;
  url: string;
  title: string;
  published: boolean;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  useRuntimeBridge(frame, appId, published ? "published" : "preview");
  return (
    <iframe
      ref={frame}
      src={url}
      title={title}
      sandbox={PREVIEW_SANDBOX}
      referrerPolicy="no-referrer"
      className="block h-full w-full border-0 bg-white"
      data-testid="space-app-frame"
    />
  );
}
