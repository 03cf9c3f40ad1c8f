"use client";

import { LinkIcon, RefreshCwIcon, UnplugIcon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { ConnectorFiles } from "./connector-files";
import {
  CONNECTORS,
  type ConnectorFile,
  type ConnectorId,
  type ConnectorTokens,
  connectUrl,
  disconnectConnector,
  fetchConnectorTokens,
} from "./data-sources-api";

type TokensState = { status: "loading" } | { status: "error" } | { status: "ready"; tokens: ConnectorTokens };

/** What the connect flow's last page (the callback) tells the editor, by postMessage and BroadcastChannel. */
type ConnectorPageMessage =
  | { type: "connector-connected"; provider: string }
  | { type: "connector-error"; provider: string; message: string };

// The callback page also announces itself here, for a popup the provider's page cut from its opener.
const CONNECTORS_CHANNEL = "connectors";

function pageMessage(data: unknown, provider: ConnectorId): ConnectorPageMessage | null {
  if (typeof data !== "object" || data === null) return null;
  const m = data as Partial<{ type: unknown; provider: unknown; message: unknown }>;
  if (m.provider !== provider) return null;
  if (m.type === "connector-connected") return { type: m.type, provider };
  if (m.type === "connector-error" && typeof m.message === "string")
    return { type: m.type, provider, message: m.message };
  return null;
}

/**
 * Notion or Google Drive: says which variables to set when the server has none for it; offers
 * to connect (the provider's consent page in a popup, which tells this window when it is done,
 * with a refresh for when it cannot); once connected, the files to pick, within the plan's
 * number, and a way to disconnect.
 */
export function ConnectorSourceForm({
  provider,
  appId,
  submit,
}: {
  provider: ConnectorId;
  appId: string;
  submit: (files: ConnectorFile[]) => Promise<string | null>;
}) {
  const label = CONNECTORS[provider].label;
  const [state, setState] = useState<TokensState>({ status: "loading" });
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);
  const [connectError, setConnectError] = useState<string | null>(null);
  const [disconnecting, setDisconnecting] = useState(false);

  const load = useCallback(async () => {
    setState((s) => (s.status === "ready" ? s : { status: "loading" }));
    try {
      setState({ status: "ready", tokens: await fetchConnectorTokens(appId) });
    } catch {
      setState({ status: "error" });
    }
  }, [appId]);

  useEffect(() => {
    void load();
  }, [load]);

  // The callback page says how the connection went: to its opener (postMessage, our origin
  // only) and on a BroadcastChannel of our origin.
  useEffect(() => {
    const onData = (data: unknown) => {
      const m = pageMessage(data, provider);
      if (!m) return;
      setBlockedUrl(null);
      if (m.type === "connector-error") return setConnectError(m.message);
      setConnectError(null);
      void load();
    };
    const onMessage = (e: MessageEvent) => {
      if (e.origin === window.location.origin) onData(e.data);
    };
    window.addEventListener("message", onMessage);
    const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(CONNECTORS_CHANNEL);
    if (channel) channel.onmessage = (e) => onData(e.data);
    return () => {
      window.removeEventListener("message", onMessage);
      channel?.close();
    };
  }, [load, provider]);

  if (state.status === "loading") {
    return (
      <div className="grid gap-2" aria-busy="true">
        <p className="text-sm text-muted-foreground">
          {fillTemplate(messages.dataSourceConnectorChecking, { provider: label })}
        </p>
        <Skeleton className="h-9 w-40" />
      </div>
    );
  }
  if (state.status === "error") {
    return (
      <div role="alert" className="grid justify-items-start gap-3 text-sm">
        <p>{fillTemplate(messages.dataSourceConnectorCheckFailed, { provider: label })}</p>
        <Button type="button" variant="outline" size="sm" onClick={() => void load()}>
          {messages.retry}
        </Button>
      </div>
    );
  }

  const { tokens } = state;
  const connector = tokens.connectors[provider];

  if (!connector.configured) {
    return (
      <p className="rounded-lg border border-dashed border-border p-4 text-sm">
        {fillTemplate(messages.dataSourceConnectorMissingEnv, {
          names: connector.missingEnv.join(messages.dataSourceConnectorNamesJoin),
          provider: label,
        })}
      </p>
    );
  }

  if (!connector.connected) {
    const url = connectUrl(provider, tokens.accessToken);
    const connect = () => {
      setConnectError(null);
      const popup = window.open(url, `connect-${provider}`, "popup,width=600,height=720");
      setBlockedUrl(popup ? null : url);
    };
    return (
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          {fillTemplate(messages.dataSourceConnectHint, { provider: label })}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={connect}>
            <LinkIcon aria-hidden="true" />
            {fillTemplate(messages.dataSourceConnect, { provider: label })}
          </Button>
          <Button type="button" variant="outline" onClick={() => void load()}>
            <RefreshCwIcon aria-hidden="true" />
            {messages.dataSourceConnectedRefresh}
          </Button>
        </div>
        {connectError ? (
          <p role="alert" className="text-sm text-destructive">
            {connectError}
          </p>
        ) : null}
        {blockedUrl ? (
          <p role="alert" className="text-sm">
            {messages.dataSourceConnectPopupBlocked}{" "}
            <a
              href={blockedUrl}
              target="_blank"
              rel="noopener opener"
              className="font-medium underline underline-offset-4 focus-visible:rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {fillTemplate(messages.dataSourceConnectOpenTab, { provider: label })}
            </a>
          </p>
        ) : null}
      </div>
    );
  }

  const disconnect = async () => {
    setDisconnecting(true);
    try {
      await disconnectConnector(provider);
      toast.success(fillTemplate(messages.dataSourceDisconnected, { provider: label }));
      await load();
    } catch {
      toast.error(fillTemplate(messages.dataSourceDisconnectFailed, { provider: label }));
    } finally {
      setDisconnecting(false);
    }
  };

  return (
    <div className="grid gap-4">
      {connector.accountName ? (
        <p className="text-sm text-muted-foreground">
          {fillTemplate(messages.dataSourceConnectedAs, { provider: label, name: connector.accountName })}
        </p>
      ) : null}
      <ConnectorFiles provider={provider} appId={appId} maxFiles={tokens.maxFiles} submit={submit} />
      <div className="flex justify-start border-t border-border pt-3">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={disconnecting}
          onClick={() => void disconnect()}
        >
          <UnplugIcon aria-hidden="true" />
          {fillTemplate(messages.dataSourceDisconnect, { provider: label })}
        </Button>
      </div>
    </div>
  );
}
