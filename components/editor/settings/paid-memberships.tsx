"use client";

import { CircleCheckIcon, ExternalLinkIcon, Loader2Icon, RefreshCwIcon, UnplugIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { FieldBlock } from "@/components/editor/panel-parts";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { safeHref } from "@/lib/apps/safe-link";
import { GUMROAD_TOKEN_MAX, PAYMENT_TOKEN_DEBOUNCE_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { PaymentProduct, PaymentsState, ProductsAnswer } from "@/lib/payments/schemas";
import { fillTemplate } from "@/lib/text";

// The Gumroad setup of paid memberships: the access token (saved only by
// a connect, never shown again), its products listed 1000 ms after the builder stops typing, the
// product end users buy (connecting it completes the setup: 'Connected to Gumroad, you're all
// set!'), and, once connected, changing the product or resyncing after a confirm, or
// disconnecting.

type Products =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; list: PaymentProduct[] }
  | { status: "error"; message: string };

type Pending = { kind: "change"; product: PaymentProduct } | { kind: "resync" } | { kind: "disconnect" };

/** The actions of a connected setup; each is confirmed first. */
const CONNECTED_ACTIONS = [
  { kind: "resync", Icon: RefreshCwIcon, label: messages.paymentsResync },
  { kind: "disconnect", Icon: UnplugIcon, label: messages.paymentsDisconnect },
] as const;

/** The confirm dialog's title and button for each action (a closed dialog keeps the resync ones). */
const CONFIRM_WORDS = {
  change: { title: messages.paymentsChangeTitle, confirmLabel: messages.paymentsChangeConfirm },
  resync: { title: messages.paymentsResyncTitle, confirmLabel: messages.paymentsResyncConfirm },
  disconnect: { title: messages.paymentsDisconnectTitle, confirmLabel: messages.paymentsDisconnectConfirm },
} as const;

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/payments`;

/** 'Failed to connect to Gumroad' or the server message. */
const connectFailure = (err: unknown) =>
  err instanceof ApiError && err.status > 0 && err.message ? err.message : messages.paymentsConnectFailed;

export function PaidMemberships({ appId }: { appId: string }) {
  const [state, setState] = useState<PaymentsState | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [token, setToken] = useState("");
  const [products, setProducts] = useState<Products>({ status: "idle" });
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  // Answers of older product lists are dropped: only the latest request counts.
  const listRequest = useRef(0);

  const connected = state?.paidMembershipsSettings.isSetupCompleted === true;
  const current = state?.paidMembershipsProduct ?? null;
  const typedToken = token.trim();

  const loadProducts = useCallback(
    async (accessToken: string | null) => {
      const request = ++listRequest.current;
      setProducts({ status: "loading" });
      const query = new URLSearchParams({ appId });
      if (accessToken) query.set("accessToken", accessToken);
      try {
        const { products: list } = await apiFetch<ProductsAnswer>(`${base(appId)}/products?${query}`);
        if (request === listRequest.current) setProducts({ status: "ready", list });
      } catch (err) {
        if (request !== listRequest.current) return;
        toast.error(messages.paymentsProductsFailed, { id: "payments-products" });
        const message =
          err instanceof ApiError && err.status > 0 ? err.message : messages.paymentsProductsFailed;
        setProducts({ status: "error", message });
      }
    },
    [appId],
  );

  useEffect(() => {
    let live = true;
    apiFetch<PaymentsState>(base(appId))
      .then((loaded) => {
        if (!live) return;
        setState(loaded);
        // Connected: the saved token lists the products to change to.
        if (loaded.paidMembershipsSettings.isSetupCompleted) void loadProducts(null);
      })
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, [appId, loadProducts]);

  // "Payment token input debounced 1000 ms": the products of the token being typed.
  useEffect(() => {
    if (!typedToken) return;
    const timer = setTimeout(() => void loadProducts(typedToken), PAYMENT_TOKEN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typedToken, loadProducts]);

  // Toasts carry ids: a repeated outcome (a resync after a connect) replaces its toast.
  const connect = async (productId: string) => {
    setBusy(true);
    try {
      const next = await apiFetch<PaymentsState>(`${base(appId)}/connect`, {
        body: { productId, ...(typedToken ? { accessToken: typedToken } : {}) },
      });
      setState(next);
      setToken("");
      toast.success(messages.paymentsConnected, { id: "payments" });
    } catch (err) {
      toast.error(connectFailure(err), { id: "payments" });
    } finally {
      setBusy(false);
    }
  };

  const disconnect = async () => {
    setBusy(true);
    try {
      setState(await apiFetch<PaymentsState>(base(appId), { method: "DELETE" }));
      setProducts({ status: "idle" });
      setToken("");
      toast.success(messages.paymentsDisconnected, { id: "payments" });
    } catch {
      toast.error(messages.paymentsDisconnectFailed, { id: "payments" });
    } finally {
      setBusy(false);
    }
  };

  const choose = (productId: string) => {
    if (products.status !== "ready") return;
    const product = products.list.find((p) => p.id === productId);
    if (!product || productId === current?.id) return;
    // A connected product is changed only after the confirm.
    if (connected) setPending({ kind: "change", product });
    else void connect(product.id);
  };

  const confirm = () => {
    const what = pending;
    setPending(null);
    if (!what) return;
    if (what.kind === "change") void connect(what.product.id);
    else if (what.kind === "resync" && current) void connect(current.id);
    else if (what.kind === "disconnect") void disconnect();
  };

  if (loadFailed) {
    return <p className="text-sm text-destructive">{messages.internal}</p>;
  }
  if (!state) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
        <Loader2Icon aria-hidden="true" className="size-4 animate-spin" />
        {messages.paymentsLoading}
      </p>
    );
  }

  const list = products.status === "ready" ? products.list : [];
  // The connected product shows even before (or without) the list.
  const options = current && !list.some((p) => p.id === current.id) ? [current, ...list] : list;
  const productUrl = safeHref(current?.url);
  const productHint =
    products.status === "loading"
      ? messages.paymentsLoadingProducts
      : products.status === "ready" && list.length === 0
        ? messages.paymentsNoProducts
        : !connected && products.status === "idle"
          ? messages.paymentsProductNeedsToken
          : undefined;

  return (
    <div className="grid gap-4 rounded-lg border border-border p-4" data-testid="paid-memberships">
      <div className="grid gap-1">
        <h4 className="text-sm font-semibold">{messages.paymentsSection}</h4>
        {connected && current ? (
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" role="status">
            <CircleCheckIcon aria-hidden="true" className="size-4 shrink-0 text-foreground" />
            <span className="min-w-0 break-words">
              {fillTemplate(messages.paymentsConnectedTo, { product: current.name })}
            </span>
            {productUrl ? (
              <a
                href={productUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1 text-sm underline underline-offset-4"
              >
                <ExternalLinkIcon aria-hidden="true" className="size-3.5" />
                {messages.paymentsViewProduct}
              </a>
            ) : null}
          </p>
        ) : (
          <p className="text-xs text-muted-foreground" role="status">
            {messages.paymentsNotConnected}
          </p>
        )}
      </div>

      <FieldBlock
        label={messages.paymentsTokenLabel}
        hint={connected ? messages.paymentsTokenSavedHint : messages.paymentsTokenHint}
        error={products.status === "error" && typedToken ? products.message : null}
      >
        {(control) => (
          <Input
            {...control}
            type="password"
            value={token}
            maxLength={GUMROAD_TOKEN_MAX}
            autoComplete="off"
            spellCheck={false}
            placeholder={
              connected ? messages.paymentsTokenSavedPlaceholder : messages.paymentsTokenPlaceholder
            }
            onChange={(e) => setToken(e.target.value)}
          />
        )}
      </FieldBlock>

      <FieldBlock
        label={messages.paymentsProductLabel}
        hint={productHint}
        error={products.status === "error" && !typedToken ? products.message : null}
      >
        {(control) => (
          <Select value={current?.id ?? ""} onValueChange={choose} disabled={busy || options.length === 0}>
            <SelectTrigger {...control} aria-busy={busy || products.status === "loading"}>
              <SelectValue placeholder={messages.paymentsProductPlaceholder} />
            </SelectTrigger>
            <SelectContent>
              {options.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      </FieldBlock>

      {busy ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Loader2Icon aria-hidden="true" className="size-4 animate-spin" />
          {messages.paymentsConnecting}
        </p>
      ) : null}

      {connected ? (
        <div className="flex flex-wrap gap-2">
          {CONNECTED_ACTIONS.map(({ kind, Icon, label }) => (
            <Button
              key={kind}
              type="button"
              variant="outline"
              size="sm"
              disabled={busy}
              onClick={() => setPending({ kind })}
            >
              <Icon aria-hidden="true" />
              {label}
            </Button>
          ))}
        </div>
      ) : null}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={CONFIRM_WORDS[pending?.kind ?? "resync"].title}
        description={
          pending?.kind === "change"
            ? fillTemplate(messages.paymentsChangeBody, {
                from: current?.name ?? "",
                to: pending.product.name,
              })
            : pending?.kind === "disconnect"
              ? messages.paymentsDisconnectBody
              : fillTemplate(messages.paymentsResyncBody, { product: current?.name ?? "" })
        }
        confirmLabel={CONFIRM_WORDS[pending?.kind ?? "resync"].confirmLabel}
        destructive={pending?.kind === "disconnect"}
        onConfirm={confirm}
      />
    </div>
  );
}
