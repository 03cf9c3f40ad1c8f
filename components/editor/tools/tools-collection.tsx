"use client";

import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import { SortableItem, SortableList } from "@/components/editor/fields/sortable-list";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { AddToolDialog } from "./add-tool-dialog";
import { deleteTool, fetchTools, patchTool, reorderTools, type ToolView, toolName } from "./tool-api";
import { ToolRow } from "./tool-row";
import { ToolThumbnailDialog } from "./tool-thumbnail-dialog";

const nameOf = (tool: ToolView) => toolName(tool.title, messages.untitledTool);

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * /build/app/{appId}/tools: a generated app's tools with add, activate / deactivate, thumbnail,
 * delete and reorder (drag or keyboard). Every change is one request; the list shows what the
 * server answered, and a failed change puts the list back as the server has it.
 */
export function ToolsCollection({
  appId,
  appName,
  initialTools,
  maxToolsPerApp,
}: {
  appId: string;
  appName: string;
  initialTools: ToolView[];
  maxToolsPerApp: number;
}) {
  const [tools, setTools] = useState(initialTools);
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ToolView | null>(null);
  const [thumbFor, setThumbFor] = useState<string | null>(null);

  const replace = (tool: ToolView) =>
    setTools((list) => list.map((t) => (t.toolId === tool.toolId ? tool : t)));

  // After a failure the list may be behind: show the server's.
  const reload = async () => {
    try {
      setTools(await fetchTools(appId));
    } catch {
      toast.error(messages.toolsLoadFailed);
    }
  };

  const toggleStatus = async (tool: ToolView) => {
    const status = tool.status === "active" ? "draft" : "active";
    setBusyId(tool.toolId);
    try {
      const saved = await patchTool(appId, tool, { status });
      replace(saved);
      toast.success(
        fillTemplate(status === "active" ? messages.toolActivated : messages.toolDeactivated, {
          name: nameOf(saved),
        }),
      );
    } catch (err) {
      const message = err instanceof ApiError ? err.message : messages.saveToolFailed;
      if (err instanceof ApiError && err.status === 403 && err.code === "PLAN_LIMIT") {
        // The plan's live tool limit.
        toast.error(message, {
          action: {
            label: messages.toolsUpgrade,
            onClick: () => openUpgradeDialog({ reason: "liveTools", appId }),
          },
        });
      } else {
        // 'Your tool should have a header before it is activated', or a failure.
        toast.error(err instanceof ApiError && err.status > 0 ? message : messages.saveToolFailed);
        if (err instanceof ApiError && err.status === 404) await reload();
      }
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (tool: ToolView) => {
    setDeleting(null);
    setBusyId(tool.toolId);
    try {
      await deleteTool(appId, tool.toolId);
      setTools((list) => list.filter((t) => t.toolId !== tool.toolId));
      toast.success(fillTemplate(messages.deletedName, { name: nameOf(tool) }));
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : messages.internal);
    } finally {
      setBusyId(null);
    }
  };

  const move = async (from: number, to: number) => {
    const next = moved(tools, from, to);
    setTools(next);
    try {
      setTools(
        await reorderTools(
          appId,
          next.map((t) => t.toolId),
        ),
      );
    } catch {
      toast.error(messages.toolReorderFailed);
      await reload();
    }
  };

  const setThumbnail = async (tool: ToolView, imageUrl: string | null) => {
    try {
      replace(await patchTool(appId, tool, { imageUrl }));
    } catch (err) {
      toast.error(err instanceof ApiError && err.status > 0 ? err.message : messages.saveToolFailed);
    }
  };

  const thumbTool = tools.find((t) => t.toolId === thumbFor) ?? null;

  const addButton = (
    <Button onClick={() => setAdding(true)}>
      <PlusIcon aria-hidden="true" />
      {messages.addTool}
    </Button>
  );
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{messages.toolsTitle}</h1>
          <p className="text-sm text-muted-foreground">
            {fillTemplate(messages.toolsDescription, { name: appName })}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span className="text-sm text-muted-foreground">
            {fillTemplate(messages.toolsCountOf, { n: tools.length, max: maxToolsPerApp })}
          </span>
          {tools.length > 0 && addButton}
        </div>
      </div>

      {tools.length === 0 ? (
        <EmptyState title={messages.toolsEmptyTitle} text={messages.toolsEmptyText} action={addButton} />
      ) : (
        // dnd-kit puts its screen reader texts beside the list, so the <ul> goes inside.
        <SortableList
          ids={tools.map((t) => t.toolId)}
          labelOf={(id) => nameOf(tools.find((t) => t.toolId === id) ?? tools[0]!)}
          onMove={(from, to) => void move(from, to)}
        >
          <ul className="grid gap-2">
            {tools.map((tool) => (
              <SortableItem key={tool.toolId} id={tool.toolId}>
                {(handle) => (
                  <ToolRow
                    appId={appId}
                    tool={tool}
                    name={nameOf(tool)}
                    handle={handle}
                    busy={busyId === tool.toolId}
                    onToggleStatus={() => void toggleStatus(tool)}
                    onThumbnail={() => setThumbFor(tool.toolId)}
                    onDelete={() => setDeleting(tool)}
                  />
                )}
              </SortableItem>
            ))}
          </ul>
        </SortableList>
      )}

      <AddToolDialog
        appId={appId}
        open={adding}
        onOpenChange={setAdding}
        tools={tools}
        onAdded={(tool) => setTools((list) => [...list, tool])}
      />
      <ToolThumbnailDialog
        appId={appId}
        tool={thumbTool}
        name={thumbTool ? nameOf(thumbTool) : ""}
        onOpenChange={(open) => !open && setThumbFor(null)}
        onChange={(tool, url) => void setThumbnail(tool, url)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={
          <span className="break-words">
            {fillTemplate(messages.toolDeleteTitle, { name: deleting ? nameOf(deleting) : "" })}
          </span>
        }
        description={messages.toolDeleteDescription}
        confirmLabel={messages.toolDelete}
        destructive
        onConfirm={() => deleting && void remove(deleting)}
      />
    </div>
  );
}
