"use client";

import { CompassIcon } from "lucide-react";
import { usePathname } from "next/navigation";
import { NoticeCard } from "@/components/shell/notice-card";
import { editorMessages } from "@/lib/messages/editor";
import { homeMessages } from "@/lib/messages/home";
import { publicAppMessages } from "@/lib/messages/public-app";
import { fillTemplate } from "@/lib/text";

/** The path asked for, from the address: Next gives not-found pages no params. */
function pathFrom(pathname: string): { path: string; appId: string | null } {
  const m = /^\/(?:app\/([^/]+)\/)?tool\/([^/]+)/.exec(pathname);
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { path: m ? decode(m[2]!) : "", appId: m?.[1] ? decode(m[1]) : null };
}

/** 'Tool with path {path} not found', as the 404 page of the tool routes. */
export function ToolNotFound() {
  const { path, appId } = pathFrom(usePathname() ?? "");
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 px-4 py-12">
      <NoticeCard
        icon={CompassIcon}
        title={fillTemplate(editorMessages.toolPathNotFound, { path })}
        titleClassName="break-words"
        text={publicAppMessages.publicToolNotFoundHint}
        href={appId ? `/app/${encodeURIComponent(appId)}` : "/"}
        action={appId ? publicAppMessages.publicOpenApp : homeMessages.notFoundHome}
      />
    </main>
  );
}
