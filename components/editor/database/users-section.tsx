"use client";

import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { AppRole, AppUserPage, AppUserView } from "@/lib/app-data/app-user-schemas";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { formatCell } from "./entity-text";
import { LoadMoreButton } from "./load-more-button";

type State = { phase: "loading" } | { phase: "error" } | ({ phase: "ready" } & AppUserPage);

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/users`;

/**
 * The User entity's own fields, shown first: the row's id stands where other entities show
 * creatorId. The role comes early, so that it shows in the editor's narrow column.
 */
const BUILT_IN_COLUMNS = ["id", "email", "role", "fullName"] as const;

/**
 * The app's end users (the rows of its User entity), newest first, 50 at a time with Load more:
 * their id, address, name and role, when they signed up, then the extra fields the app's User
 * entity declares. The builder makes one an admin of the app, or a user again, after a confirm.
 */
export function UsersSection({ appId }: { appId: string }) {
  const headingId = useId();
  const [state, setState] = useState<State>({ phase: "loading" });
  const [loadingMore, setLoadingMore] = useState(false);
  const [pending, setPending] = useState<{ user: AppUserView; role: AppRole } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      setState({ phase: "ready", ...(await apiFetch<AppUserPage>(base(appId))) });
    } catch {
      setState({ phase: "error" });
    }
  }, [appId]);
  useEffect(() => {
    void load();
  }, [load]);

  const loadMore = async () => {
    if (state.phase !== "ready" || !state.nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await apiFetch<AppUserPage>(
        `${base(appId)}?${new URLSearchParams({ cursor: state.nextCursor })}`,
      );
      setState({ ...page, phase: "ready", users: [...state.users, ...page.users] });
    } catch {
      toast.error(messages.databaseUsersLoadFailed);
    } finally {
      setLoadingMore(false);
    }
  };

  const changeRole = async (user: AppUserView, role: AppRole) => {
    try {
      const changed = await apiFetch<AppUserView>(`${base(appId)}/${user.id}`, {
        method: "PATCH",
        body: { role },
      });
      setState((s) =>
        s.phase === "ready" ? { ...s, users: s.users.map((u) => (u.id === changed.id ? changed : u)) } : s,
      );
      const done = role === "admin" ? messages.databaseRoleNowAdmin : messages.databaseRoleNowUser;
      toast.success(fillTemplate(done, { email: user.email }));
    } catch {
      toast.error(messages.databaseRoleChangeFailed);
    }
  };

  let body: React.ReactNode;
  if (state.phase === "loading") body = <LoadingLine text={messages.databaseLoading} />;
  else if (state.phase === "error") {
    body = <LoadFailed text={messages.databaseUsersLoadFailed} onRetry={() => void load()} />;
  } else if (state.users.length === 0) {
    body = (
      <p className="text-sm text-muted-foreground">
        {fillTemplate(messages.databaseUsersEmpty, { path: `/app/${appId}` })}
      </p>
    );
  } else {
    const extra = state.fields.map((f) => f.name);
    body = (
      <>
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">{messages.databaseUsers}</caption>
            <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                {BUILT_IN_COLUMNS.map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {c}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                  {messages.databaseCreatedAt}
                </th>
                {extra.map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {state.users.map((u) => (
                <tr key={u.id} className="border-t border-border align-top">
                  <td className="px-3 py-2">
                    {/* Cut short on screen (the whole id on hover); read out whole. */}
                    <code title={u.id} className="block max-w-20 truncate font-mono text-xs leading-5">
                      {u.id}
                    </code>
                  </td>
                  <td className="min-w-36 max-w-56 px-3 py-2 break-all">{u.email}</td>
                  <td className="px-2 py-1">
                    <Select
                      value={u.role}
                      onValueChange={(role) => {
                        setPending({ user: u, role: role as AppRole });
                        // After the key event that chose the role: opened within it, the dialog
                        // takes focus before the Enter's keypress, which then presses its Cancel.
                        window.setTimeout(() => setConfirming(true));
                      }}
                    >
                      <SelectTrigger
                        className="h-8 w-24"
                        aria-label={fillTemplate(messages.databaseUserRoleOf, { email: u.email })}
                      >
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        <SelectItem value="user">{messages.databaseRoleUser}</SelectItem>
                        <SelectItem value="admin">{messages.databaseRoleAdmin}</SelectItem>
                      </SelectContent>
                    </Select>
                  </td>
                  <td className="max-w-48 px-3 py-2 break-words">{formatCell(u.fullName)}</td>
                  <td className="px-3 py-2 whitespace-nowrap text-muted-foreground">
                    <time dateTime={u.createdAt}>{new Date(u.createdAt).toLocaleString()}</time>
                  </td>
                  {extra.map((c) => (
                    <td key={c} className="max-w-48 px-3 py-2 break-words">
                      {formatCell(u.data[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {state.nextCursor ? <LoadMoreButton busy={loadingMore} onClick={() => void loadMore()} /> : null}
      </>
    );
  }

  const toAdmin = pending?.role === "admin";
  const email = pending?.user.email ?? "";
  return (
    <section aria-labelledby={headingId} className="grid min-w-0 content-start gap-4">
      <div className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="font-semibold">
            {messages.databaseUsers}
          </h3>
          {state.phase === "ready" ? (
            <span className="text-xs text-muted-foreground">
              {state.total === 1
                ? messages.databaseUsersCountOne
                : fillTemplate(messages.databaseUsersCount, { count: state.total })}
            </span>
          ) : null}
        </div>
        <p className="text-sm text-muted-foreground">{messages.databaseUsersDescription}</p>
      </div>
      <div className="grid gap-2">{body}</div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={fillTemplate(toAdmin ? messages.databaseMakeAdminTitle : messages.databaseMakeUserTitle, {
          email,
        })}
        description={toAdmin ? messages.databaseMakeAdminText : messages.databaseMakeUserText}
        confirmLabel={toAdmin ? messages.databaseMakeAdmin : messages.databaseMakeUser}
        onConfirm={() => {
          if (pending) void changeRole(pending.user, pending.role);
          setConfirming(false);
        }}
      />
    </section>
  );
}
