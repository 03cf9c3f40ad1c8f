"use client";

import { SearchIcon } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { CONNECTORS, type ConnectorFile, type ConnectorId, listConnectorFiles } from "./data-sources-api";
import { typeLabel } from "./item-format";

// Typing in the search asks the provider once it pauses, not at every key.
const SEARCH_DEBOUNCE_MS = 300;

type FilesState = { status: "loading" } | { status: "error" } | { status: "ready"; files: ConnectorFile[] };

/**
 * The files of a connected Notion or Google Drive, searchable, to tick at most `maxFiles` of
 * (the plan's connector limit: 5 files on paid plans, 1 on lite); the choice is kept across
 * searches. `submit` adds the ticked ones and resolves with the message of a failure, or null.
 */
export function ConnectorFiles({
  provider,
  appId,
  maxFiles,
  submit,
}: {
  provider: ConnectorId;
  appId: string;
  maxFiles: number;
  submit: (files: ConnectorFile[]) => Promise<string | null>;
}) {
  const ids = useId();
  const label = CONNECTORS[provider].label;
  const [query, setQuery] = useState("");
  const [files, setFiles] = useState<FilesState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [selected, setSelected] = useState<Map<string, ConnectorFile>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Try again) asks again.
  useEffect(() => {
    let current = true;
    setFiles({ status: "loading" });
    const timer = setTimeout(
      () => {
        listConnectorFiles(provider, appId, query.trim())
          .then((list) => current && setFiles({ status: "ready", files: list }))
          .catch(() => current && setFiles({ status: "error" }));
      },
      query ? SEARCH_DEBOUNCE_MS : 0,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [provider, appId, query, attempt]);

  const toggle = (file: ConnectorFile, on: boolean) => {
    setError(null);
    setSelected((current) => {
      const next = new Map(current);
      if (on && next.size < maxFiles) next.set(file.externalFileId, file);
      else next.delete(file.externalFileId);
      return next;
    });
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (selected.size === 0) {
      setError(messages.contextUploadFile);
      return;
    }
    setBusy(true);
    setError(await submit([...selected.values()]));
    setBusy(false);
  };

  const full = selected.size >= maxFiles;
  const limitId = `${ids}-limit`;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3">
      <div className="relative">
        <SearchIcon
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label={fillTemplate(messages.dataSourceFilesSearch, { provider: label })}
          placeholder={fillTemplate(messages.dataSourceFilesSearch, { provider: label })}
          className="pl-9"
        />
      </div>
      <p id={limitId} className="text-xs text-muted-foreground">
        {maxFiles === 1
          ? messages.dataSourceFilesMaxOne
          : fillTemplate(messages.dataSourceFilesMax, { n: maxFiles })}{" "}
        <span aria-live="polite">
          {fillTemplate(messages.dataSourceFilesSelected, { n: selected.size, max: maxFiles })}
        </span>
      </p>
      {files.status === "loading" ? (
        <div className="grid gap-2" aria-busy="true">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : files.status === "error" ? (
        <div role="alert" className="grid justify-items-start gap-2 text-sm">
          <p>{fillTemplate(messages.connectorListFailed, { provider: label })}</p>
          <Button type="button" variant="outline" size="sm" onClick={() => setAttempt((n) => n + 1)}>
            {messages.retry}
          </Button>
        </div>
      ) : files.files.length === 0 ? (
        <p className="py-4 text-center text-sm text-muted-foreground">{messages.dataSourceFilesEmpty}</p>
      ) : (
        <ul
          aria-label={fillTemplate(messages.dataSourceFilesList, { provider: label })}
          className="grid max-h-64 gap-1 overflow-y-auto rounded-md border border-border p-1"
        >
          {files.files.map((file, index) => {
            const id = `${ids}-file-${index}`;
            const checked = selected.has(file.externalFileId);
            return (
              <li
                key={file.externalFileId}
                className="flex items-center gap-3 rounded-sm px-2 py-1.5 hover:bg-accent"
              >
                <Checkbox
                  id={id}
                  checked={checked}
                  disabled={!checked && full}
                  aria-describedby={!checked && full ? limitId : undefined}
                  onCheckedChange={(on) => toggle(file, on === true)}
                />
                <label htmlFor={id} className="grid min-w-0 flex-1 cursor-pointer">
                  <span className="truncate text-sm">{file.name}</span>
                  <span className="text-xs text-muted-foreground">{typeLabel(file.type)}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {messages.dataSourceFilesSubmit}
        </Button>
      </div>
    </form>
  );
}
