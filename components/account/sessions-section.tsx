"use client";

import { signOut } from "next-auth/react";
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { FormError } from "@/components/auth/form-error";
import { setBearerToken } from "@/components/auth/token-store";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { deviceName } from "@/lib/format/user-agent";
import { messages } from "@/lib/messages";

type SessionItem = {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  ip: string | null;
};

const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

/** The user's live sessions: sign out of one device, or everywhere (this one included). */
export function SessionsSection() {
  const [items, setItems] = useState<SessionItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(async () => {
    try {
      setItems((await apiFetch<{ sessions: SessionItem[] }>("/api/identity/sessions")).sessions);
      setError(null);
    } catch {
      setError(messages.sessionsLoadFailed);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  // This browser's session is gone: leave the way logout does.
  const leave = async () => {
    setBearerToken(null);
    await signOut({ redirectTo: "/login" });
  };

  const endOne = async (item: SessionItem) => {
    try {
      await apiFetch(`/api/identity/sessions/${item.id}`, { method: "DELETE" });
    } catch (err) {
      return setError(err instanceof ApiError ? err.message : messages.internal);
    }
    if (item.current) return leave();
    toast.success(messages.sessionSignedOut);
    await load();
  };

  const endAll = async () => {
    setConfirming(false);
    try {
      await apiFetch("/api/identity/sessions", { method: "DELETE" });
    } catch (err) {
      return setError(err instanceof ApiError ? err.message : messages.internal);
    }
    await leave();
  };

  return (
    <section className="grid gap-3" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="font-medium">
        {messages.sessionsHeading}
      </h2>
      <p className="text-sm text-muted-foreground">{messages.sessionsDescription}</p>
      <FormError message={error} />
      {items && (
        <ul className="grid divide-y divide-border rounded-md border border-border">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="grid min-w-0 gap-0.5">
                <p className="text-sm font-medium">
                  {deviceName(item.userAgent) ?? messages.sessionUnknownDevice}
                  {item.current && (
                    <span className="ml-2 rounded bg-muted px-1.5 py-0.5 text-xs font-normal text-foreground">
                      {messages.sessionCurrent}
                    </span>
                  )}
                </p>
                <p className="text-xs text-muted-foreground">
                  {messages.sessionDetails
                    .replace("{lastSeen}", when(item.lastSeenAt))
                    .replace("{created}", when(item.createdAt))}
                  {item.ip && ` ${messages.sessionFromIp.replace("{ip}", item.ip)}`}
                </p>
              </div>
              <Button variant="outline" size="sm" onClick={() => endOne(item)}>
                {messages.sessionSignOut}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button variant="outline" className="justify-self-start" onClick={() => setConfirming(true)}>
        {messages.signOutEverywhere}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={messages.signOutEverywhereTitle}
        description={messages.signOutEverywhereDescription}
        confirmLabel={messages.signOutEverywhere}
        destructive
        onConfirm={endAll}
      />
    </section>
  );
}
