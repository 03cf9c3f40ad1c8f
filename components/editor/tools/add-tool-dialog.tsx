"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ApiError } from "@/components/auth/api-client";
import { FormError } from "@/components/auth/form-error";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
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
import { toolPathFrom } from "@/lib/apps/field-rules";
import { APP_TEXT_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { createTool, type ToolView } from "./tool-api";
import { freePath, ToolPathField, toolPathError } from "./tool-path-field";

/**
 * "Add tool": a title, and a path suggested from it (until the builder types their own), checked
 * as it is typed. The server has the last word: its tools-per-app limit (403, with the upgrade
 * dialog one click away), its path rules and unique paths.
 */
export function AddToolDialog({
  appId,
  open,
  onOpenChange,
  tools,
  onAdded,
}: {
  appId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tools: readonly ToolView[];
  onAdded: (tool: ToolView) => void;
}) {
  const router = useRouter();
  const ids = useId();
  const [title, setTitle] = useState("");
  const [path, setPath] = useState("");
  const [pathEdited, setPathEdited] = useState(false);
  const [touched, setTouched] = useState(false);
  const [serverPathError, setServerPathError] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; upgrade: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const otherPaths = tools.map((t) => t.path);
  const ruleError = toolPathError(path, otherPaths);
  const pathError = serverPathError ?? (touched ? ruleError : null);

  const focusPath = () => document.getElementById(`${ids}-path`)?.focus();

  const reset = () => {
    setTitle("");
    setPath("");
    setPathEdited(false);
    setTouched(false);
    setServerPathError(null);
    setError(null);
  };

  const onTitle = (next: string) => {
    setTitle(next);
    if (!pathEdited) {
      setPath(next.trim() ? freePath(toolPathFrom(next), otherPaths) : "");
      setServerPathError(null);
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (ruleError) {
      focusPath();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const tool = await createTool(appId, { title: title.trim(), path });
      onAdded(tool);
      reset();
      onOpenChange(false);
      router.push(`/build/app/${appId}/tool/${tool.toolId}`);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || (err.status === 400 && err.code === "RULE"))) {
        setServerPathError(err.message);
        focusPath();
      } else if (err instanceof ApiError && err.status === 403) {
        // 'You have reached the maximum number of tools allowed per app ({n}), ...'
        setError({ message: err.message, upgrade: err.code === "PLAN_LIMIT" });
      } else {
        setError({ message: err instanceof ApiError ? err.message : messages.internal, upgrade: false });
      }
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (busy) return;
    reset();
    onOpenChange(false);
  };

  const upgrade = () => {
    close();
    openUpgradeDialog({ reason: "toolsPerApp", appId });
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent size="sm">
        <DialogHeader>
          <DialogTitle>{messages.addToolTitle}</DialogTitle>
          <DialogDescription>{messages.addToolDescription}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${ids}-title`}>{messages.toolTitle}</Label>
            <Input
              id={`${ids}-title`}
              value={title}
              maxLength={APP_TEXT_MAX}
              autoComplete="off"
              onChange={(e) => onTitle(e.target.value)}
            />
          </div>
          <ToolPathField
            id={`${ids}-path`}
            appId={appId}
            value={path}
            error={pathError}
            onChange={(next) => {
              setPath(next);
              setPathEdited(true);
              setTouched(true);
              setServerPathError(null);
            }}
          />
          {error && (
            <div className="grid gap-2">
              <FormError message={error.message} />
              {error.upgrade && (
                <Button type="button" variant="outline" className="justify-self-start" onClick={upgrade}>
                  {messages.toolsUpgrade}
                </Button>
              )}
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={busy} onClick={close}>
              {messages.cancel}
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? messages.addToolAdding : messages.addTool}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
