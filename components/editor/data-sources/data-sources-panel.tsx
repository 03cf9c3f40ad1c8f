"use client";

import { PlusIcon, SparklesIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import { PanelHeading } from "@/components/editor/panel-parts";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import type { UpgradeReason } from "@/lib/plans/upgrade-reasons";
import { fillTemplate } from "@/lib/text";
import { AddDataDialog } from "./add-data-dialog";
import { DataItemRow } from "./data-item-row";
import {
  type ContextItemView,
  deleteContextItem,
  renameContextItem,
  syncContextItem,
} from "./data-sources-api";
import { withAdded, withReplaced } from "./list-updates";
import { ReplaceItemDialog } from "./replace-item-dialog";
import { useContextItems } from "./use-context-items";

/**
 * The Data sources panel of the editor: the app's data sources with their live
 * status, the Add data dialog, and rename, replace, sync again and delete per item. The plan is
 * the app owner's (a lite account holds 1 item; its uploads are smaller).
 */
export function DataSourcesPanel({
  appId,
  ownerPlan,
  title,
}: {
  appId: string;
  ownerPlan: string;
  title: string;
}) {
  const caps = getPlanCapabilities(ownerPlan);
  const { state, reload, update, announcement, limitReachedNow } = useContextItems(appId);
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ContextItemView | null>(null);
  const [replacing, setReplacing] = useState<ContextItemView | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  // After a delete the row and its menu are gone: the focus goes to the way to add another (the
  // list's button, or the empty state's once the last item went), once that has rendered.
  const focusAdd = useRef(false);
  useEffect(() => {
    if (!focusAdd.current || !addRef.current) return;
    focusAdd.current = false;
    addRef.current.focus();
  });

  const limitReached = state.status === "ready" && state.hasReachedDataLimit;
  const openUpgrade = (reason: UpgradeReason = "dataItems") => openUpgradeDialog({ reason, appId });
  // After a delete the list is shown without the item at once, and read again: whether the plan
  // allows another is that read's answer (a click right after the delete waits for it).
  const onAdd = async () => ((await limitReachedNow()) ? openUpgrade() : setAdding(true));

  const onPlanLimit = (reason: UpgradeReason) => {
    setAdding(false);
    void reload();
    // After the add dialog has closed and given the focus back: one modal at a time.
    setTimeout(() => openUpgrade(reason), 0);
  };

  const onAdded = (items: ContextItemView[]) => {
    update((list) => withAdded(list, items));
    if (items.length === 1)
      toast.success(fillTemplate(messages.dataSourceAddedToast, { name: items[0]!.name }));
    void reload();
  };

  const rename = async (item: ContextItemView, name: string) => {
    setBusyId(item.id);
    update((list) => list.map((i) => (i.id === item.id ? { ...i, name } : i)));
    try {
      await renameContextItem(item.id, name);
      return true;
    } catch {
      update((list) => list.map((i) => (i.id === item.id ? { ...i, name: item.name } : i)));
      toast.error(messages.contextRenameFailed);
      return false;
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (item: ContextItemView) => {
    setDeleting(null);
    setBusyId(item.id);
    try {
      await deleteContextItem(item.id);
    } catch (err) {
      // Already gone (deleted in another tab) is what was asked for.
      if (!(err instanceof ApiError && err.status === 404)) {
        toast.error(messages.contextDeleteFailed);
        setBusyId(null);
        return;
      }
    }
    focusAdd.current = true;
    update((list) => list.filter((i) => i.id !== item.id));
    setBusyId(null);
    toast.success(fillTemplate(messages.deletedName, { name: item.name }));
    void reload();
  };

  const sync = async (item: ContextItemView) => {
    setBusyId(item.id);
    const setStatus = (status: string, error: string | null) =>
      update((list) => list.map((i) => (i.id === item.id ? { ...i, status, error } : i)));
    // Pending before the request, as the server makes it: a quick source may be read and Synced
    // while the request is still on its way back, and the live status must not be set back then.
    setStatus("pending", null);
    try {
      await syncContextItem(item.id);
      toast.success(fillTemplate(messages.dataSourceSyncQueued, { name: item.name }));
    } catch (err) {
      setStatus(item.status, item.error);
      toast.error(
        err instanceof ApiError && err.status === 400 ? err.message : messages.contextUploadDataFailed,
      );
    } finally {
      setBusyId(null);
    }
  };

  const onReplaced = (oldId: string, added: ContextItemView) => {
    update((list) => withReplaced(list, oldId, added));
    toast.success(fillTemplate(messages.dataSourceReplaced, { name: added.name }));
    void reload();
  };

  const addButton = (
    <Button ref={addRef} onClick={() => void onAdd()} className="w-fit">
      <PlusIcon aria-hidden="true" />
      {messages.dataSourcesAdd}
    </Button>
  );

  let body: ReactNode;
  if (state.status === "loading") {
    body = (
      <div className="grid gap-2" aria-busy="true">
        <Skeleton className="h-9 w-32" />
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
      </div>
    );
  } else if (state.status === "error") {
    body = (
      <div
        role="alert"
        className="grid justify-items-start gap-3 rounded-lg border border-border p-4 text-sm"
      >
        <p>{messages.contextFetchFailed}</p>
        <Button variant="outline" size="sm" onClick={() => void reload("initial")}>
          {messages.retry}
        </Button>
      </div>
    );
  } else if (state.items.length === 0) {
    body = (
      <EmptyState
        title={messages.dataSourcesEmptyTitle}
        text={messages.dataSourcesEmptyText}
        action={addButton}
      />
    );
  } else {
    body = (
      <>
        <div className="grid gap-2">
          {addButton}
          {limitReached ? (
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
              <p>{messages.upgradeReasonDataItems}</p>
              <Button variant="outline" size="sm" onClick={() => openUpgrade()}>
                <SparklesIcon aria-hidden="true" />
                {messages.editorUpgrade}
              </Button>
            </div>
          ) : null}
        </div>
        <ul aria-label={messages.dataSourcesList} className="grid gap-2">
          {state.items.map((item) => (
            <DataItemRow
              key={item.id}
              item={item}
              busy={busyId === item.id}
              onRename={(name) => rename(item, name)}
              onDelete={() => setDeleting(item)}
              onReplace={() => setReplacing(item)}
              onSync={() => void sync(item)}
            />
          ))}
        </ul>
      </>
    );
  }

  return (
    <div className="grid gap-4">
      <PanelHeading title={title} description={messages.dataSourcesDescription} />
      {body}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <AddDataDialog
        open={adding}
        onOpenChange={setAdding}
        appId={appId}
        caps={caps}
        onAdded={onAdded}
        onPlanLimit={onPlanLimit}
      />
      <ReplaceItemDialog
        item={replacing}
        appId={appId}
        maxBytes={caps.maxUploadBytes}
        onClose={() => setReplacing(null)}
        onReplaced={onReplaced}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={fillTemplate(messages.dataSourceDeleteTitle, { name: deleting?.name ?? "" })}
        description={messages.dataSourceDeleteText}
        confirmLabel={messages.dataSourceDelete}
        destructive
        onConfirm={() => deleting && void remove(deleting)}
      />
    </div>
  );
}
