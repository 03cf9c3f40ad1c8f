"use client";

import { ShieldIcon, UsersIcon } from "lucide-react";
import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { PanelHeading } from "@/components/editor/panel-parts";
import { useAskChat } from "@/components/space/chat/ask-chat";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectSeparator,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { messages } from "@/lib/messages";
import type { EntityList, EntityView } from "@/lib/space/entities";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { ACCESS_LABEL, ACCESS_PRESETS, type AccessPreset, fieldTypeText } from "./entity-text";
import { RecordsSection } from "./records-section";
import { UsersSection } from "./users-section";

type State = { phase: "loading" } | { phase: "error" } | { phase: "ready"; entities: EntityView[] };

/** The picker's value of the Users view: no entity can be named so (names start with a letter). */
const USERS = "#users";

/**
 * The Database panel of a space app: its entities but User, listed in a sidebar (a
 * dropdown when the panel is narrow: phones, and the editor's column on a desktop), each with its
 * fields and its access levels; below them Users, the app's end users (the User entity's rows).
 * The chat writes entities; an access preset is sent to it as a chat message, and the panel gives
 * way to the chat to show the answer.
 */
export function DatabasePanel({ appId }: { appId: string }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [selected, setSelected] = useState<string | null>(null);

  const load = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      const answer = await apiFetch<EntityList>(`/api/apps/${encodeURIComponent(appId)}/entities`);
      setState({ phase: "ready", entities: answer.entities });
    } catch {
      setState({ phase: "error" });
    }
  }, [appId]);
  useEffect(() => {
    void load();
  }, [load]);

  let body: React.ReactNode;
  if (state.phase === "loading") body = <LoadingLine text={messages.databaseLoading} />;
  else if (state.phase === "error") {
    body = <LoadFailed text={messages.databaseLoadFailed} onRetry={() => void load()} />;
  } else {
    const entity = state.entities.find((e) => e.name === selected) ?? state.entities[0];
    const current = selected === USERS ? USERS : (entity?.name ?? null);
    let details: React.ReactNode;
    if (current === USERS) details = <UsersSection appId={appId} />;
    else if (entity) details = <EntityDetails key={entity.name} appId={appId} entity={entity} />;
    else details = <EmptyState title={messages.databaseEmpty} text={messages.databaseEmptyHint} />;
    body = (
      <div className="@container">
        <div className="grid gap-4 @xl:grid-cols-[10rem_minmax(0,1fr)]">
          <EntityPicker entities={state.entities} current={current} onPick={setSelected} />
          {details}
        </div>
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <PanelHeading title={messages.editorDatabaseTitle} description={messages.editorDatabaseDescription} />
      {body}
    </div>
  );
}

/**
 * The sidebar of entities, then Users, or a dropdown where the panel is narrow. `current` is
 * null while there is no entity and Users is not chosen (the empty state shows).
 */
function EntityPicker({
  entities,
  current,
  onPick,
}: {
  entities: EntityView[];
  current: string | null;
  onPick: (name: string) => void;
}) {
  const labelId = useId();
  const item = (value: string, active: boolean) =>
    cn(
      "flex w-full items-center gap-2 truncate rounded-md px-3 py-2 text-left text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring",
      active && "bg-accent font-medium",
      value === USERS && "[&_svg]:size-4 [&_svg]:shrink-0",
    );
  return (
    <>
      <div className="grid gap-1.5 @xl:hidden">
        <span id={labelId} className="text-sm font-medium">
          {messages.databaseEntity}
        </span>
        {/* Radix shows the placeholder for the value "" (no entity yet). */}
        <Select value={current ?? ""} onValueChange={onPick}>
          <SelectTrigger aria-labelledby={labelId} className="w-full">
            <SelectValue placeholder={messages.databaseEntities} />
          </SelectTrigger>
          <SelectContent>
            {entities.length > 0 ? (
              <>
                <SelectGroup>
                  {entities.map((e) => (
                    <SelectItem key={e.name} value={e.name}>
                      {e.name}
                    </SelectItem>
                  ))}
                </SelectGroup>
                <SelectSeparator />
              </>
            ) : null}
            <SelectItem value={USERS}>{messages.databaseUsers}</SelectItem>
          </SelectContent>
        </Select>
      </div>
      <nav aria-label={messages.databaseEntities} className="hidden @xl:grid content-start gap-1">
        {entities.length > 0 ? (
          <ul className="grid gap-1 border-b border-border pb-1">
            {entities.map((e) => (
              <li key={e.name}>
                <button
                  type="button"
                  aria-current={e.name === current ? "true" : undefined}
                  onClick={() => onPick(e.name)}
                  className={item(e.name, e.name === current)}
                >
                  <span className="truncate">{e.name}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <button
          type="button"
          aria-current={current === USERS ? "true" : undefined}
          onClick={() => onPick(USERS)}
          className={item(USERS, current === USERS)}
        >
          <UsersIcon aria-hidden />
          <span className="truncate">{messages.databaseUsers}</span>
        </button>
      </nav>
    </>
  );
}

function EntityDetails({ appId, entity }: { appId: string; entity: EntityView }) {
  return (
    <section aria-labelledby={`entity-${entity.name}`} className="grid min-w-0 content-start gap-4">
      <h3 id={`entity-${entity.name}`} className="truncate font-semibold">
        {entity.name}
      </h3>
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full text-sm">
          <caption className="sr-only">{`${messages.databaseFields}: ${entity.name}`}</caption>
          <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                {messages.databaseField}
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                {messages.databaseType}
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                {messages.databaseRequired}
              </th>
            </tr>
          </thead>
          <tbody>
            {entity.fields.map((f) => (
              <tr key={f.name} className="border-t border-border align-top">
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <code className="break-all font-mono text-xs">{f.name}</code>
                  {f.builtIn ? (
                    <span className="block text-xs text-muted-foreground">{messages.databaseBuiltIn}</span>
                  ) : null}
                </th>
                <td className="px-3 py-2 break-words">{fieldTypeText(f)}</td>
                <td className="px-3 py-2">
                  {f.required ? messages.databaseRequiredYes : messages.databaseRequiredNo}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AccessSection entity={entity} />
      <RecordsSection appId={appId} entity={entity} />
    </section>
  );
}

function AccessSection({ entity }: { entity: EntityView }) {
  const askChat = useAskChat();
  const choose = (preset: AccessPreset) => {
    if (!askChat) return;
    const text = fillTemplate(messages.databaseAccessRequest, {
      entity: entity.name,
      preset: messages[preset.label],
      read: ACCESS_LABEL[preset.read],
      write: ACCESS_LABEL[preset.write],
    });
    if (askChat(text)) toast.success(fillTemplate(messages.databaseAccessSent, { entity: entity.name }));
    else toast.error(messages.chatBusy);
  };
  return (
    <div className="grid gap-2">
      <h4 className="text-sm font-medium">{messages.databaseAccess}</h4>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{messages.databaseRead}</dt>
        <dd>{ACCESS_LABEL[entity.access.read]}</dd>
        <dt className="text-muted-foreground">{messages.databaseWrite}</dt>
        <dd>{ACCESS_LABEL[entity.access.write]}</dd>
      </dl>
      {askChat ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="justify-self-start">
              <ShieldIcon aria-hidden />
              {messages.databaseChangeAccess}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            <DropdownMenuLabel>{messages.databaseAccessPresets}</DropdownMenuLabel>
            {ACCESS_PRESETS.map((p) => (
              <DropdownMenuItem key={p.label} onSelect={() => choose(p)}>
                {messages[p.label]}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
    </div>
  );
}
