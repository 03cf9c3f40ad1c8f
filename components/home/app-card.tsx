"use client";

import { ChartColumnIcon, ExternalLinkIcon, Trash2Icon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import {
  DropdownMenu,
  DropdownMenuActionsTrigger,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
} from "@/components/ui/dropdown-menu";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { appKind, appName, type HomeApp } from "./app-kinds";
import { RelativeTime } from "./relative-time";

/**
 * One app on /home. The whole card opens the editor (its title link is stretched over the card);
 * the menu button sits above that link, so it is its own tab stop and its own click target.
 */
export function AppCard({ app, onDelete }: { app: HomeApp; onDelete: (app: HomeApp) => void }) {
  const kind = appKind(app.appType);
  const name = appName(app.header);
  const KindIcon = kind.icon;
  const published = app.status === "active";
  return (
    <li className="relative flex min-w-0 flex-col gap-3 rounded-lg border border-border bg-background p-4 shadow-sm transition-colors has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-ring hover:bg-accent/50">
      <div className="flex items-start gap-3">
        <span
          className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted"
          aria-hidden="true"
        >
          <KindIcon className="size-4.5 text-muted-foreground" />
        </span>
        <div className="grid min-w-0 flex-1 gap-0.5">
          <h2 className="truncate font-medium">
            <Link
              href={`/build/app/${app.appId}`}
              className="outline-none after:absolute after:inset-0 after:rounded-lg after:content-['']"
            >
              {name}
            </Link>
          </h2>
          <p className="text-sm text-muted-foreground">{kind.label}</p>
        </div>
        <DropdownMenu>
          <DropdownMenuActionsTrigger
            className="relative z-10 -mr-2 -mt-1"
            aria-label={fillTemplate(messages.appActions, { name })}
          />
          <DropdownMenuContent align="end">
            {published && (
              <>
                <DropdownMenuItem asChild>
                  <a href={`/app/${app.appId}`} target="_blank" rel="noreferrer">
                    <ExternalLinkIcon aria-hidden="true" />
                    {messages.appOpenPublished}
                  </a>
                </DropdownMenuItem>
                <DropdownMenuSeparator />
              </>
            )}
            {app.appType !== "space" && (
              <>
                <DropdownMenuItem asChild>
                  <Link href={`/analytics/app/${app.appId}`}>
                    <ChartColumnIcon aria-hidden="true" />
                    {messages.appAnalytics}
                  </Link>
                </DropdownMenuItem>
                <DropdownMenuSeparator />
              </>
            )}
            <DropdownMenuItem variant="destructive" onSelect={() => onDelete(app)}>
              <Trash2Icon aria-hidden="true" />
              {messages.appDelete}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <Badge tone={published ? "positive" : "muted"}>
          {published ? messages.publishPublished : messages.publishNotPublished}
        </Badge>
        {app.appType !== "space" && (
          <span>
            {app.toolsCount === 1
              ? messages.appToolsCountOne
              : fillTemplate(messages.appToolsCount, { n: app.toolsCount })}
          </span>
        )}
        <RelativeTime iso={app.updatedAt} template={(time) => fillTemplate(messages.appEdited, { time })} />
      </div>
    </li>
  );
}
