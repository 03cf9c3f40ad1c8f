"use client";

import { Loader2Icon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
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
import { SECRET_VALUE_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { SecretRequirement } from "@/lib/secrets/requests";
import { saveSecrets } from "./secrets-api";

/**
 * The chat's secrets dialog, opened from a request_secrets card: one value per requested secret
 * (its name and description beside it). Every value must be filled ('Secret values required' /
 * 'Please enter values for all secrets'); the description is kept as the secret's instructions.
 */
export function ChatSecretsDialog({
  appId,
  requested,
  onOpenChange,
  onFocusOpener,
}: {
  appId: string;
  requested: readonly SecretRequirement[];
  onOpenChange: (open: boolean) => void;
  onFocusOpener?: (event: Event) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const id = useId();

  const submit = async () => {
    setTried(true);
    if (requested.some((r) => !values[r.secretName])) {
      toast.error(messages.secretValuesRequired, { description: messages.secretValuesRequiredDescription });
      return;
    }
    setSaving(true);
    try {
      await saveSecrets(appId, {
        secrets: requested.map((r) => ({
          key: r.secretName,
          value: values[r.secretName]!,
          ...(r.description ? { instructions: r.description } : {}),
        })),
      });
      toast.success(messages.secretsSaved);
      onOpenChange(false);
    } catch (err) {
      const detail = err instanceof ApiError && err.status === 400 ? err.message : undefined;
      toast.error(messages.secretsSetFailed, detail ? { description: detail } : undefined);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent size="md" onCloseAutoFocus={onFocusOpener}>
        <DialogHeader>
          <DialogTitle>{messages.chatSecretsDialogTitle}</DialogTitle>
          <DialogDescription>{messages.chatSecretsDialogDescription}</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {requested.map((r, i) => {
            const missing = tried && !values[r.secretName];
            return (
              <div key={r.secretName} className="grid gap-1.5">
                <Label htmlFor={`${id}-${i}`} className="font-mono">
                  {r.secretName}
                </Label>
                {r.description ? (
                  <p id={`${id}-${i}-d`} className="text-xs text-muted-foreground">
                    {r.description}
                  </p>
                ) : null}
                <Input
                  id={`${id}-${i}`}
                  type="password"
                  autoComplete="new-password"
                  spellCheck={false}
                  maxLength={SECRET_VALUE_MAX}
                  value={values[r.secretName] ?? ""}
                  aria-invalid={missing || undefined}
                  aria-describedby={r.description ? `${id}-${i}-d` : undefined}
                  onChange={(e) => setValues((v) => ({ ...v, [r.secretName]: e.target.value }))}
                />
              </div>
            );
          })}
          <DialogFooter>
            <Button type="submit" disabled={saving} aria-busy={saving}>
              {saving ? <Loader2Icon aria-hidden className="animate-spin" /> : null}
              {saving ? messages.secretsSaving : messages.secretsSave}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
