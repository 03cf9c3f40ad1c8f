"use client";

import { CompassIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/plans/text";

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

/** 'Tool with path {path} not found' (spec 2 §2), as the 404 page of the tool routes. */
export function ToolNotFound() {
  const { path, appId } = pathFrom(usePathname() ?? "");
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 px-4 py-12">
      <Card className="grid w-full max-w-sm gap-4 text-center">
        <CompassIcon className="mx-auto size-8 text-muted-foreground" aria-hidden />
        <div className="grid gap-1">
          <CardTitle className="break-words">{fillTemplate(messages.toolPathNotFound, { path })}</CardTitle>
          <CardDescription>{messages.publicToolNotFoundHint}</CardDescription>
        </div>
        <Link
          href={appId ? `/app/${encodeURIComponent(appId)}` : "/"}
          className={buttonVariants({ className: "justify-self-center" })}
        >
          {appId ? messages.publicOpenApp : messages.notFoundHome}
        </Link>
      </Card>
    </main>
  );
}
