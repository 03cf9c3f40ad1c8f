"use client";

import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { FormError } from "@/components/auth/form-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { LoadFailed } from "@/components/ui/load-failed";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import {
  type AdminBuilderAnswer,
  type AdminBuilderPatch,
  AdminBuildersAnswer,
} from "@/lib/accounts/admin-schemas";
import { messages } from "@/lib/messages";
import { PLAN_CATALOGUE } from "@/lib/plans/catalogue";
import { fillTemplate } from "@/lib/text";

// Typing pauses this long before the list is asked again.
const SEARCH_DELAY_MS = 250;

type Listing =
  | { status: "loading" }
  | { status: "error" }
  | { status: "ready"; builders: AdminBuilderAnswer[]; more: boolean };

/** /admin/builders: every builder by email, with a plan picker and an admin switch each. */
export function BuildersAdmin({ selfAccountId }: { selfAccountId: string }) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const [attempt, setAttempt] = useState(0);
  const [listing, setListing] = useState<Listing>({ status: "loading" });
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Try again) reloads.
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      apiFetch(`/api/admin/builders?q=${encodeURIComponent(search)}`).then(
        (answer) => {
          if (live) setListing({ status: "ready", ...AdminBuildersAnswer.parse(answer) });
        },
        () => {
          if (live) setListing({ status: "error" });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, attempt]);

  const change = async (builder: AdminBuilderAnswer, patch: AdminBuilderPatch) => {
    setError(null);
    try {
      const saved = (await apiFetch(`/api/admin/builders/${builder.accountId}`, {
        method: "PATCH",
        body: patch,
      })) as AdminBuilderAnswer;
      setListing((l) =>
        l.status === "ready"
          ? { ...l, builders: l.builders.map((b) => (b.accountId === saved.accountId ? saved : b)) }
          : l,
      );
      toast.success(fillTemplate(messages.adminBuildersSaved, { email: builder.email }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : messages.internal);
    }
  };

  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={searchId}>{messages.adminBuildersSearch}</Label>
        <Input
          id={searchId}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
          className="max-w-sm"
        />
      </div>
      <FormError message={error} />
      {listing.status === "error" && (
        <LoadFailed text={messages.adminBuildersLoadFailed} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      {listing.status === "loading" && (
        <p className="text-sm text-muted-foreground">{messages.adminBuildersLoading}</p>
      )}
      {listing.status === "ready" && listing.builders.length === 0 && (
        <p className="text-sm text-muted-foreground">{messages.adminBuildersEmpty}</p>
      )}
      {listing.status === "ready" && listing.builders.length > 0 && (
        <ul
          aria-label={messages.adminBuildersTitle}
          className="grid divide-y divide-border rounded-md border border-border"
        >
          {listing.builders.map((b) => (
            <BuilderRow
              key={b.accountId}
              builder={b}
              isSelf={b.accountId === selfAccountId}
              onChange={change}
            />
          ))}
        </ul>
      )}
      {listing.status === "ready" && listing.more && (
        <p className="text-sm text-muted-foreground">
          {fillTemplate(messages.adminBuildersMore, { n: listing.builders.length })}
        </p>
      )}
    </div>
  );
}

function BuilderRow({
  builder,
  isSelf,
  onChange,
}: {
  builder: AdminBuilderAnswer;
  isSelf: boolean;
  onChange: (builder: AdminBuilderAnswer, patch: AdminBuilderPatch) => Promise<void>;
}) {
  const vars = { email: builder.email };
  return (
    <li data-testid="admin-builder" className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3">
      <span className="min-w-0 flex-1 basis-48 break-all text-sm font-medium">{builder.email}</span>
      <Select
        value={builder.plan}
        onValueChange={(plan) => void onChange(builder, { plan: plan as AdminBuilderPatch["plan"] })}
      >
        <SelectTrigger className="w-36" aria-label={fillTemplate(messages.adminBuildersPlanOf, vars)}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {PLAN_CATALOGUE.map((p) => (
            <SelectItem key={p.id} value={p.id}>
              {p.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <div className="flex items-center gap-2">
        {/* One's own rights stay: taking them away here would lock the last admin out. */}
        <Switch
          checked={builder.isAdmin}
          disabled={isSelf && builder.isAdmin}
          onCheckedChange={(isAdmin) => void onChange(builder, { isAdmin })}
          aria-label={fillTemplate(messages.adminBuildersAdminOf, vars)}
        />
        <span aria-hidden className="text-sm">
          {messages.adminBuildersIsAdmin}
        </span>
      </div>
    </li>
  );
}
