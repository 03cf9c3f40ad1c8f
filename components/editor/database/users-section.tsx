"use client";

import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { APP_ROLES, type AppRole, type AppUserPage, type AppUserView } from "@/lib/app-data/app-user-schemas";
import { TABLE_COLUMN_DEFAULT_WIDTH } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { EntityField } from "@/lib/space/entities";
import { type TableColumn, tableColumns } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import { LoadMoreButton } from "./load-more-button";
import { RecordsTable, type TableRow } from "./records-table";

type State = { phase: "loading" } | { phase: "error" } | ({ phase: "ready" } & AppUserPage);

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/users`;

const field = (name: string, extra: Partial<EntityField> = {}): EntityField => ({
  name,
  type: "string",
  format: null,
  enum: null,
  items: null,
  itemEnum: null,
  maxLength: null,
  required: true,
  builtIn: false,
  ...extra,
});

/**
 * The User entity's columns: its own fields first, the row's id where other entities show
 * creatorId, the role early (so that it shows in the editor's narrow column), then the fields the
 * app's User entity adds. All read-only here.
 */
function userColumns(fields: EntityField[]): TableColumn[] {
  return tableColumns("User", [
    field("id", { builtIn: true }),
    field("email"),
    field("role", { enum: [...APP_ROLES] }),
    field("fullName", { type: "string or null", required: false }),
    field("createdAt", { format: "date-time", builtIn: true }),
    ...fields,
  ]).map((c) => ({
    ...c,
    readOnly: true,
    // An address is seldom short: the table's own default width rather than a field's.
    width: c.field === "email" ? TABLE_COLUMN_DEFAULT_WIDTH : c.width,
  }));
}

/** An end user as a row of the grid: the built-in fields over the app's own. */
const userRow = (u: AppUserView): TableRow => ({
  record: {
    id: u.id,
    creatorId: null,
    createdAt: u.createdAt,
    data: { ...u.data, email: u.email, role: u.role, fullName: u.fullName },
  },
  pending: false,
});

/** An end user's role: choosing the other one asks for a confirm (the caller's dialog). */
function RoleSelect({
  user,
  onChoose,
}: {
  user: AppUserView;
  onChoose: (u: AppUserView, r: AppRole) => void;
}) {
  return (
    <Select value={user.role} onValueChange={(role) => onChoose(user, role as AppRole)}>
      <SelectTrigger
        tabIndex={-1}
        className="h-8 w-full px-2"
        aria-label={fillTemplate(messages.databaseUserRoleOf, { email: user.email })}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="user">{messages.databaseRoleUser}</SelectItem>
        <SelectItem value="admin">{messages.databaseRoleAdmin}</SelectItem>
      </SelectContent>
    </Select>
  );
}

/**
 * The app's end users (the rows of its User entity) in the Database grid, newest first, 50 at a
 * time with Load more:
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

  const chooseRole = (user: AppUserView, role: AppRole) => {
    setPending({ user, role });
    // After the key event that chose the role: opened within it, the dialog takes focus before
    // the Enter's keypress, which then presses its Cancel.
    window.setTimeout(() => setConfirming(true));
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
    body = (
      <>
        <RecordsTable
          label={messages.databaseUsers}
          columns={userColumns(state.fields)}
          rows={state.users.map(userRow)}
          // Every cell is read-only: the role changes through its own control, after a confirm.
          onSaveCell={() => {}}
          renderCell={(row, column) => {
            if (column.field === "id") {
              // Cut short on screen (the whole id on hover); read out whole.
              return (
                <code title={row.record.id} className="min-w-0 truncate font-mono text-xs">
                  {row.record.id}
                </code>
              );
            }
            if (column.field !== "role") return undefined;
            const user = state.users.find((u) => u.id === row.record.id);
            return user ? <RoleSelect user={user} onChoose={chooseRole} /> : undefined;
          }}
        />
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
