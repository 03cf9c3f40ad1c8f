"use client";

import { PlusIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { AppCard } from "./app-card";
import { appName, type HomeApp } from "./app-kinds";
import { CreateAppDialog } from "./create-app-dialog";

/** /home: the builder's apps, last edited first, with create and delete. */
export function AppsList({ initialApps, email }: { initialApps: HomeApp[]; email: string }) {
  const router = useRouter();
  const [apps, setApps] = useState(initialApps);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<HomeApp | null>(null);

  const remove = async (app: HomeApp) => {
    setDeleting(null);
    try {
      await apiFetch(`/api/apps/${app.appId}`, { method: "DELETE" });
    } catch (err) {
      // Already gone (deleted in another tab): the list should not show it either.
      if (!(err instanceof ApiError && err.status === 404)) {
        toast.error(err instanceof ApiError ? err.message : messages.internal);
        return;
      }
    }
    setApps((list) => list.filter((a) => a.appId !== app.appId));
    toast.success(fillTemplate(messages.deletedName, { name: appName(app.header) }));
    router.refresh();
  };

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <PlusIcon aria-hidden="true" />
      {messages.createApp}
    </Button>
  );
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 p-4 sm:p-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{messages.homeTitle}</h1>
          <p className="truncate text-sm text-muted-foreground">
            {fillTemplate(messages.homeSignedInAs, { email })}
          </p>
        </div>
        {apps.length > 0 && createButton}
      </div>
      {apps.length === 0 ? (
        <EmptyState title={messages.homeEmptyTitle} text={messages.homeEmptyText} action={createButton} />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {apps.map((app) => (
            <AppCard key={app.appId} app={app} onDelete={setDeleting} />
          ))}
        </ul>
      )}
      <CreateAppDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={fillTemplate(messages.appDeleteTitle, { name: deleting ? appName(deleting.header) : "" })}
        description={messages.appDeleteDescription}
        confirmLabel={messages.appDelete}
        destructive
        onConfirm={() => deleting && void remove(deleting)}
      />
    </div>
  );
}
