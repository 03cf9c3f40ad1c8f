"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { FormError } from "@/components/auth/form-error";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { AppType } from "@/lib/apps/schemas";
import { APP_BUILDER_VERSION, APP_TEXT_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { cn } from "@/lib/utils";
import { APP_KINDS } from "./app-kinds";
import { newId } from "./new-id";

export type CreateAppDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * "Create app": the three app kinds (tool, generated app, space app) and a name, then POST /api/apps and the editor.
 * The id is made here and kept until the create succeeds, so trying again after a lost answer
 * sends the same id and the server answers the app the first attempt made (one app, not two).
 */
export function CreateAppDialog({ open, onOpenChange }: CreateAppDialogProps) {
  const router = useRouter();
  const ids = useId();
  const [kind, setKind] = useState<AppType>("tool");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The id of the create in flight or last failed: a retry of the same create reuses it.
  const pendingId = useRef<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const chooseKind = (next: AppType) => {
    // Another kind is another create: a retry with the old id would meet the app of the old kind.
    if (next !== kind) pendingId.current = null;
    setKind(next);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const header = name.trim();
    if (!header) {
      setError(messages.createAppNameRequired);
      nameRef.current?.focus();
      return;
    }
    pendingId.current ??= newId();
    const appId = pendingId.current;
    const content = { header, appBuilderVersion: APP_BUILDER_VERSION };
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/apps", {
        method: "POST",
        body: { appId, appType: kind, ...(kind === "generated" ? { genApp: content } : { app: content }) },
      });
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 0) return setError(messages.createAppNetworkFailed);
      // The id is taken by something else (another kind): the next attempt starts afresh.
      if (err instanceof ApiError && err.status === 409) pendingId.current = null;
      return setError(err instanceof ApiError ? err.message : messages.internal);
    }
    pendingId.current = null;
    router.push(`/build/app/${appId}`);
  };

  const nameError = error === messages.createAppNameRequired;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        if (!next) setError(null);
        onOpenChange(next);
      }}
    >
      <DialogContent size="md">
        <DialogHeader>
          <DialogTitle>{messages.createAppTitle}</DialogTitle>
          <DialogDescription>{messages.createAppDescription}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <fieldset className="m-0 grid min-w-0 gap-2 border-0 p-0">
            <legend className="mb-2 p-0 text-sm font-medium leading-none">{messages.createAppKind}</legend>
            {APP_KINDS.map(({ type, label, hint, icon: Icon }) => (
              <label
                key={type}
                className={cn(
                  "flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 transition-colors hover:bg-accent",
                  "has-checked:border-primary has-checked:bg-accent has-focus-visible:ring-2 has-focus-visible:ring-ring",
                )}
              >
                <input
                  type="radio"
                  name={`${ids}-kind`}
                  value={type}
                  checked={kind === type}
                  onChange={() => chooseKind(type)}
                  aria-describedby={`${ids}-${type}-hint`}
                  className="mt-1 size-4 shrink-0 accent-(--primary)"
                />
                <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
                <span className="grid gap-0.5">
                  <span className="text-sm font-medium">{label}</span>
                  <span id={`${ids}-${type}-hint`} className="text-sm text-muted-foreground">
                    {hint}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="grid gap-1.5">
            <Label htmlFor={`${ids}-name`}>{messages.createAppName}</Label>
            <Input
              ref={nameRef}
              id={`${ids}-name`}
              value={name}
              maxLength={APP_TEXT_MAX}
              placeholder={messages.createAppNamePlaceholder}
              autoComplete="off"
              aria-invalid={nameError || undefined}
              aria-describedby={nameError ? `${ids}-error` : undefined}
              onChange={(e) => {
                setName(e.target.value);
                if (nameError) setError(null);
              }}
            />
          </div>
          <div id={`${ids}-error`}>
            <FormError message={error} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={busy} onClick={() => onOpenChange(false)}>
              {messages.cancel}
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? messages.createAppCreating : error && !nameError ? messages.retry : messages.createApp}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
