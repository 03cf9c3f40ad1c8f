"use client";

import { LinkIcon, Loader2Icon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { inviteFailureMessage } from "./settings-rules";

export type InviteButtonProps = {
  appId: string;
  status: "active" | "draft";
  /**
   * Resolves when the editor's pending saves are done, so a claim switch turned on a moment ago
   * is saved before the invitation is asked for.
   */
  flush?: () => Promise<void>;
};

/**
 * The admin's copy-invite button: asks GET /api/apps/{appId}/settings/claimInvitation
 * and copies the inviteLink. Render it for admins only; the route refuses everyone else.
 */
export function InviteButton({ appId, status, flush }: InviteButtonProps) {
  const [busy, setBusy] = useState(false);

  const copy = async () => {
    // "Invite link cannot be copied until the app is published".
    if (status !== "active") {
      toast.error(messages.inviteNotPublished);
      return;
    }
    setBusy(true);
    let inviteLink: string;
    try {
      await flush?.();
      ({ inviteLink } = await apiFetch<{ inviteLink: string; claimCode: string }>(
        `/api/apps/${encodeURIComponent(appId)}/settings/claimInvitation`,
      ));
    } catch (err) {
      const failure =
        err instanceof ApiError ? inviteFailureMessage(err.status, err.message) : "inviteFailed";
      toast.error(typeof failure === "string" ? messages[failure] : failure.text);
      setBusy(false);
      return;
    }
    try {
      await navigator.clipboard.writeText(inviteLink);
      toast.success(messages.inviteCopied);
    } catch (err) {
      // The clipboard can be refused (permissions, an unfocused page): the link is shown instead.
      console.error("copy invite link", err);
      toast.message(fillTemplate(messages.appSettingsInviteManual, { link: inviteLink }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={() => void copy()}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? <Loader2Icon aria-hidden="true" className="animate-spin" /> : <LinkIcon aria-hidden="true" />}
      {messages.appSettingsInvite}
    </Button>
  );
}
