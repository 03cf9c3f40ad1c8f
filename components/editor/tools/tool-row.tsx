"use client";

import { CircleCheckIcon, CircleDashedIcon, ImageIcon, PencilIcon, Trash2Icon } from "lucide-react";
import Link from "next/link";
import { DragHandle, type DragHandleProps } from "@/components/editor/fields/sortable-list";
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
import type { ToolView } from "./tool-api";

export const toolHref = (appId: string, toolId: string) => `/build/app/${appId}/tool/${toolId}`;

/** One tool in the collection: handle, thumbnail, title (opens the tool), path, status, actions. */
export function ToolRow({
  appId,
  tool,
  name,
  handle,
  busy,
  onToggleStatus,
  onThumbnail,
  onDelete,
}: {
  appId: string;
  tool: ToolView;
  name: string;
  handle: DragHandleProps;
  busy: boolean;
  onToggleStatus: () => void;
  onThumbnail: () => void;
  onDelete: () => void;
}) {
  const active = tool.status === "active";
  return (
    <div className="flex items-center gap-2 rounded-lg border border-border bg-background p-2 pr-1 shadow-sm sm:gap-3 sm:p-3 sm:pr-2">
      <DragHandle handle={handle} label={name} />
      <div className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-muted sm:size-12">
        {tool.imageUrl ? (
          // biome-ignore lint/performance/noImgElement: an uploaded image of any type, shown as stored
          <img src={tool.imageUrl} alt="" className="size-full object-cover" />
        ) : (
          <ImageIcon aria-hidden="true" className="size-5 text-muted-foreground" />
        )}
      </div>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <Link
          href={toolHref(appId, tool.toolId)}
          className="truncate font-medium underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {name}
        </Link>
        <span className="truncate font-mono text-xs text-muted-foreground">/{tool.path}</span>
      </div>
      <Badge tone={active ? "positive" : "muted"}>
        {active ? messages.toolStatusActive : messages.toolStatusDraft}
      </Badge>
      <DropdownMenu>
        <DropdownMenuActionsTrigger aria-label={fillTemplate(messages.toolActions, { name })} />
        <DropdownMenuContent align="end">
          <DropdownMenuItem asChild>
            <Link href={toolHref(appId, tool.toolId)}>
              <PencilIcon aria-hidden="true" />
              {messages.toolEdit}
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem disabled={busy} onSelect={onToggleStatus}>
            {active ? <CircleDashedIcon aria-hidden="true" /> : <CircleCheckIcon aria-hidden="true" />}
            {active ? messages.toolDeactivate : messages.toolActivate}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onThumbnail}>
            <ImageIcon aria-hidden="true" />
            {messages.toolChangeThumbnail}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="destructive" disabled={busy} onSelect={onDelete}>
            <Trash2Icon aria-hidden="true" />
            {messages.toolDelete}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
