"use client";

import { CheckIcon, KeyRoundIcon } from "lucide-react";
import { useState } from "react";
import { ChatSecretsDialog } from "@/components/space/secrets/chat-secrets-dialog";
import { useSecrets } from "@/components/space/secrets/secrets-api";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { missingSecrets, type SecretRequirement } from "@/lib/secrets/requests";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { useFocusOpener } from "./use-focus-opener";

/**
 * The badge of a request_secrets card: 'Secrets set' once the app holds every secret asked for,
 * else 'Secrets needed' (nothing while its secrets load).
 */
export function SecretsStatus({
  appId,
  requested,
}: {
  appId: string;
  requested: readonly SecretRequirement[];
}) {
  const { secrets } = useSecrets(appId);
  if (!secrets || requested.length === 0) return null;
  const set = missingSecrets(requested, new Set(secrets.map((s) => s.key))).length === 0;
  return (
    <span
      data-secrets-status={set ? "set" : "missing"}
      className={cn(
        "inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs",
        set
          ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300"
          : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
      )}
    >
      {set ? <CheckIcon aria-hidden className="size-3" /> : <KeyRoundIcon aria-hidden className="size-3" />}
      {set ? messages.chatSecretsAllSet : messages.chatSecretsMissing}
    </span>
  );
}

/**
 * Under a request_secrets card: each requested secret the app does not hold yet, with its name
 * and description (or that it is set), and the button that opens the chat's secrets dialog.
 */
export function SecretsRequest({ appId, requested }: { appId: string; requested: SecretRequirement[] }) {
  const { secrets } = useSecrets(appId);
  const [open, setOpen] = useState(false);
  if (requested.length === 0) {
    return (
      <p className="border-t border-border px-2.5 py-1.5 text-xs text-muted-foreground">
        {messages.chatSecretsNoneRequested}
      </p>
    );
  }
  const stored = secrets ? new Set(secrets.map((s) => s.key)) : null;
  const missing = stored ? missingSecrets(requested, stored) : requested;
  return (
    <div className="grid gap-2 border-t border-border px-2.5 py-2 text-xs" data-testid="secrets-request">
      {stored ? (
        <ul className="grid gap-1">
          {requested.map((r) =>
            stored.has(r.secretName) ? (
              <li key={r.secretName} className="text-muted-foreground" data-secret-set={r.secretName}>
                {fillTemplate(messages.chatSecretsSetOne, { name: r.secretName })}
              </li>
            ) : (
              <li key={r.secretName} data-secret-missing={r.secretName}>
                {r.description
                  ? fillTemplate(messages.chatSecretsMissingOne, {
                      name: r.secretName,
                      description: r.description,
                    })
                  : fillTemplate(messages.chatSecretsMissingBare, { name: r.secretName })}
              </li>
            ),
          )}
        </ul>
      ) : null}
      <div>
        <Button size="sm" variant={missing.length > 0 ? "default" : "outline"} onClick={() => setOpen(true)}>
          <KeyRoundIcon aria-hidden />
          {missing.length > 0 ? messages.chatSecretsEnter : messages.chatSecretsUpdate}
        </Button>
      </div>
      {open ? (
        <SecretsDialogOpened appId={appId} requested={requested} onClose={() => setOpen(false)} />
      ) : null}
    </div>
  );
}

function SecretsDialogOpened({
  appId,
  requested,
  onClose,
}: {
  appId: string;
  requested: SecretRequirement[];
  onClose: () => void;
}) {
  const focusOpener = useFocusOpener();
  return (
    <ChatSecretsDialog
      appId={appId}
      requested={requested}
      onOpenChange={(open) => !open && onClose()}
      onFocusOpener={focusOpener}
    />
  );
}
