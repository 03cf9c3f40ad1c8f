"use client";

import { Loader2Icon, PlusIcon, Trash2Icon, XIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
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
import { LoadFailed } from "@/components/ui/load-failed";
import { SECRET_KEY_MAX, SECRET_VALUE_MAX, SECRETS_PER_APP_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { checkSecretRows, duplicateKey, type SecretRow } from "@/lib/secrets/requests";
import { fillTemplate } from "@/lib/text";
import { deleteSecret, loadSecrets, saveSecrets, useSecrets } from "./secrets-api";

const emptyRow = (): SecretRow => ({ key: "", value: "", instructions: "" });

/** The message of a refused save, its placeholders filled. */
function rowProblem(rows: SecretRow[], saved: ReadonlySet<string>): string | null {
  const problem = checkSecretRows(rows, saved);
  if (!problem) return null;
  return fillTemplate(messages[problem], {
    max: problem === "secretKeyInvalid" ? SECRET_KEY_MAX : SECRET_VALUE_MAX,
    key: duplicateKey(rows, saved),
  });
}

/**
 * The Secrets dialog of a space app's settings: the saved secrets read-only (key, masked value,
 * instructions) each with a delete button, and new rows of key, value and instructions saved
 * together. A value, once saved, is never shown again.
 */
export function SecretsDialog({
  appId,
  open,
  onOpenChange,
}: {
  appId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { secrets, failed, loading, reload } = useSecrets(appId);
  const [rows, setRows] = useState<SecretRow[]>([emptyRow()]);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  /** The key whose delete waits for the builder's confirmation. */
  const [confirmKey, setConfirmKey] = useState<string | null>(null);
  const problemId = useId();

  useEffect(() => {
    if (!open) return;
    setRows([emptyRow()]);
    setProblem(null);
    void loadSecrets(appId);
  }, [open, appId]);

  const saved = new Set((secrets ?? []).map((s) => s.key));
  const edit = (i: number, patch: Partial<SecretRow>) => {
    setRows((r) => r.map((row, j) => (j === i ? { ...row, ...patch } : row)));
    setProblem(null);
  };

  const save = async () => {
    const filled = rows.filter((r) => r.key || r.value || r.instructions);
    const wrong = filled.length === 0 ? messages.secretsKeyAndValueRequired : rowProblem(filled, saved);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    setSaving(true);
    try {
      await saveSecrets(appId, {
        secrets: filled.map((r) => ({
          key: r.key.trim(),
          value: r.value,
          ...(r.instructions.trim() ? { instructions: r.instructions.trim() } : {}),
        })),
      });
      toast.success(messages.secretsSaved);
      setRows([emptyRow()]);
    } catch (err) {
      const detail = err instanceof ApiError && err.status === 400 ? err.message : undefined;
      toast.error(messages.secretsSaveFailed, detail ? { description: detail } : undefined);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (key: string) => {
    setDeleting(key);
    try {
      await deleteSecret(appId, key);
      toast.success(messages.secretDeleted);
    } catch {
      toast.error(messages.secretDeleteFailed);
    } finally {
      setDeleting(null);
    }
  };

  const room = SECRETS_PER_APP_MAX - saved.size - rows.length;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg">
        <DialogHeader>
          <DialogTitle>{messages.secretsDialogTitle}</DialogTitle>
          <DialogDescription>{messages.secretsDescription}</DialogDescription>
        </DialogHeader>

        <section aria-labelledby={`${problemId}-saved`} className="grid gap-2">
          <h3 id={`${problemId}-saved`} className="text-sm font-medium">
            {messages.secretsExistingLabel}
          </h3>
          {failed && !secrets ? (
            <LoadFailed text={messages.secretsLoadFailed} onRetry={() => void reload()} />
          ) : !secrets ? (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {loading ? messages.secretsLoading : null}
            </p>
          ) : secrets.length === 0 ? (
            <p className="text-sm text-muted-foreground">{messages.secretsEmpty}</p>
          ) : (
            <ul className="grid gap-1.5" data-testid="saved-secrets">
              {secrets.map((s) => (
                <li
                  key={s.key}
                  className="flex min-w-0 items-center gap-2 rounded-md border border-border px-3 py-2"
                  data-secret-key={s.key}
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-mono text-sm">{s.key}</span>
                    {s.instructions ? (
                      <span className="block truncate text-xs text-muted-foreground" title={s.instructions}>
                        {s.instructions}
                      </span>
                    ) : null}
                  </span>
                  <span
                    className="shrink-0 font-mono text-sm text-muted-foreground"
                    role="img"
                    aria-label={messages.secretsMaskedValue}
                  >
                    {s.value}
                  </span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 shrink-0"
                    aria-label={fillTemplate(messages.secretsDelete, { key: s.key })}
                    title={fillTemplate(messages.secretsDelete, { key: s.key })}
                    disabled={deleting !== null}
                    onClick={() => setConfirmKey(s.key)}
                  >
                    {deleting === s.key ? (
                      <Loader2Icon aria-hidden className="animate-spin" />
                    ) : (
                      <Trash2Icon aria-hidden />
                    )}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <form
          className="grid gap-3"
          aria-labelledby={`${problemId}-new`}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          noValidate
        >
          <h3 id={`${problemId}-new`} className="text-sm font-medium">
            {messages.secretsNewLabel}
          </h3>
          {rows.map((row, i) => (
            <fieldset
              // Rows have no identity but their place; a removed row shifts the ones below.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={i}
              className="grid grid-cols-[1fr_auto] gap-2 rounded-md border border-border p-3 sm:grid-cols-[1fr_1fr_auto]"
              data-secret-row={i}
            >
              <legend className="sr-only">{fillTemplate(messages.secretsNewRow, { n: i + 1 })}</legend>
              <Input
                aria-label={messages.secretsKeyLabel}
                placeholder={messages.secretsKeyLabel}
                value={row.key}
                autoComplete="off"
                spellCheck={false}
                maxLength={SECRET_KEY_MAX}
                aria-invalid={problem !== null && !row.key.trim() ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
                className="font-mono"
                onChange={(e) => edit(i, { key: e.target.value })}
              />
              <Input
                type="password"
                aria-label={messages.secretsValueLabel}
                placeholder={messages.secretsValueLabel}
                value={row.value}
                autoComplete="new-password"
                spellCheck={false}
                aria-invalid={problem !== null && !row.value ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
                className="col-span-2 sm:col-span-1"
                onChange={(e) => edit(i, { value: e.target.value })}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                // Beside the key on phones, at the row's end on wider screens.
                className="col-start-2 row-start-1 size-9 justify-self-end sm:col-start-3"
                aria-label={fillTemplate(messages.secretsRemoveRow, { n: i + 1 })}
                title={fillTemplate(messages.secretsRemoveRow, { n: i + 1 })}
                onClick={() => {
                  setRows((r) => (r.length === 1 ? [emptyRow()] : r.filter((_, j) => j !== i)));
                  setProblem(null);
                }}
              >
                <XIcon aria-hidden />
              </Button>
              <Input
                aria-label={messages.secretsInstructionsLabel}
                placeholder={messages.secretsInstructionsLabel}
                value={row.instructions}
                className="col-span-2"
                onChange={(e) => edit(i, { instructions: e.target.value })}
              />
            </fieldset>
          ))}
          {problem ? (
            <p id={problemId} role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={room <= 0}
              onClick={() => setRows((r) => [...r, emptyRow()])}
            >
              <PlusIcon aria-hidden />
              {messages.secretsAddRow}
            </Button>
          </div>
          <DialogFooter>
            <Button type="submit" disabled={saving} aria-busy={saving}>
              {saving ? <Loader2Icon aria-hidden className="animate-spin" /> : null}
              {saving ? messages.secretsSaving : messages.secretsSave}
            </Button>
          </DialogFooter>
        </form>
        <AlertDialog open={confirmKey !== null} onOpenChange={(open) => !open && setConfirmKey(null)}>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>
                {fillTemplate(messages.secretDeleteTitle, { key: confirmKey ?? "" })}
              </AlertDialogTitle>
              <AlertDialogDescription>{messages.secretDeleteDescription}</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>{messages.cancel}</AlertDialogCancel>
              <AlertDialogAction destructive onClick={() => confirmKey && void remove(confirmKey)}>
                {messages.secretDeleteConfirm}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </DialogContent>
    </Dialog>
  );
}
