"use client";

import { CompassIcon } from "lucide-react";
import { usePathname } from "next/navigation";
import { NoticeCard } from "@/components/shell/notice-card";
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

/** The texts of the card, given by the server (tool-not-found.tsx): the page ships only these four. */
export type ToolNotFoundTexts = { title: string; hint: string; openApp: string; home: string };

/** The card of the tool routes' 404, filled from the address. */
export function ToolNotFoundCard({ texts }: { texts: ToolNotFoundTexts }) {
  const { path, appId } = pathFrom(usePathname() ?? "");
  return (
    <NoticeCard
      icon={CompassIcon}
      title={fillTemplate(texts.title, { path })}
      titleClassName="break-words"
      text={texts.hint}
      href={appId ? `/app/${encodeURIComponent(appId)}` : "/"}
      action={appId ? texts.openApp : texts.home}
    />
  );
}
