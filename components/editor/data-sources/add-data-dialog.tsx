"use client";

import {
  ArrowLeftIcon,
  FileSpreadsheetIcon,
  FileTextIcon,
  GlobeIcon,
  HardDriveIcon,
  type LucideIcon,
  NotebookIcon,
  TypeIcon,
} from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { type MessageKey, messages } from "@/lib/messages";
import type { PlanCapabilities } from "@/lib/plans/capabilities";
import type { UpgradeReason } from "@/lib/plans/upgrade-reasons";
import { ConnectorSourceForm } from "./connector-source-form";
import {
  addFailureMessage,
  CONNECTORS,
  type ConnectorFile,
  type ConnectorId,
  type ContextItemView,
  ingestConnectorItems,
  ingestText,
  planLimitReason,
  uploadContextFile,
} from "./data-sources-api";
import { FileSourceForm, type SubmitFile } from "./file-source-form";
import { TextSourceForm } from "./text-source-form";
import { WebsiteSourceForm } from "./website-source-form";

type Option = "text" | "csv" | "doc" | "website" | ConnectorId;

const OPTIONS: { id: Option; icon: LucideIcon; label: MessageKey; hint: MessageKey }[] = [
  { id: "text", icon: TypeIcon, label: "dataSourceOptionText", hint: "dataSourceOptionTextHint" },
  { id: "csv", icon: FileSpreadsheetIcon, label: "dataSourceOptionCsv", hint: "dataSourceOptionCsvHint" },
  { id: "doc", icon: FileTextIcon, label: "dataSourceOptionDoc", hint: "dataSourceOptionDocHint" },
  { id: "website", icon: GlobeIcon, label: "dataSourceOptionWebsite", hint: "dataSourceOptionWebsiteHint" },
  { id: "notion", icon: NotebookIcon, label: "dataSourceOptionNotion", hint: "dataSourceOptionNotionHint" },
  {
    id: "google-drive",
    icon: HardDriveIcon,
    label: "dataSourceOptionDrive",
    hint: "dataSourceOptionDriveHint",
  },
];

/** The item as the list shows it until the server's list is read again: Pending, added now. */
export function pendingItem(
  values: Pick<ContextItemView, "id" | "name" | "type" | "source"> & Partial<ContextItemView>,
): ContextItemView {
  return {
    status: "pending",
    error: null,
    size: 0,
    createdAt: new Date().toISOString(),
    lastSyncedAt: null,
    externalFileUrl: null,
    externalFileId: null,
    providerItemId: null,
    provider: null,
    ...values,
  };
}

/** The item type of an uploaded file, by its name (the server checks the content). */
export const fileType = (name: string) =>
  name.toLowerCase().endsWith(".csv") ? "csv" : name.toLowerCase().endsWith(".pdf") ? "pdf" : "doc";

/** A pasted text's name until the server's arrives: its first words. */
export const textName = (text: string) => {
  const line = text.trim().split(/\s+/).join(" ");
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
};

const siteName = (url: string) => {
  const u = new URL(url);
  return `${u.host}${u.pathname === "/" ? "" : u.pathname}`;
};

export type AddDataDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  appId: string;
  /** The app owner's plan's limits: the upload size and the crawl's reach. */
  caps: PlanCapabilities;
  /** Items were added: the list shows them at once, as Pending. */
  onAdded: (items: ContextItemView[]) => void;
  /** A plan limit refused the add (its data items, or its connector files): the caller offers the upgrade. */
  onPlanLimit: (reason: UpgradeReason) => void;
};

/**
 * The Data Sources dialog: Text, Items List (CSV), Doc (PDF, Word), Website, Notion
 * and Google Drive. Each form checks what it can before sending; a refusal shows the server's
 * words, the plan's item limit opens the upgrade dialog, and a success closes it.
 */
export function AddDataDialog({ open, onOpenChange, appId, caps, onAdded, onPlanLimit }: AddDataDialogProps) {
  const [option, setOption] = useState<Option | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastOption = useRef<Option | null>(null);
  const gridRef = useRef<HTMLUListElement>(null);
  const ids = useId();

  // Each opening starts from the choice of kind.
  useEffect(() => {
    if (open) setOption(null);
  }, [open]);

  // Focus follows the step: the chosen kind's heading, or back on the kind that was open.
  useEffect(() => {
    if (option) headingRef.current?.focus();
    else if (lastOption.current)
      gridRef.current?.querySelector<HTMLElement>(`[data-option="${lastOption.current}"]`)?.focus();
  }, [option]);

  const choose = (next: Option | null) => {
    if (next) lastOption.current = next;
    setOption(next);
  };

  /** Runs an add; null when it went through (or became the upgrade prompt), else its message. */
  const run = async (add: () => Promise<ContextItemView[]>, failure: string): Promise<string | null> => {
    try {
      const items = await add();
      onAdded(items);
      onOpenChange(false);
      return null;
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") throw err;
      const limit = planLimitReason(err);
      if (limit) {
        onPlanLimit(limit);
        return null;
      }
      return addFailureMessage(err, failure);
    }
  };

  const addText = (text: string) =>
    run(async () => {
      const id = await ingestText(appId, text);
      return [
        pendingItem({
          id,
          name: textName(text),
          type: "txt",
          source: "local files",
          size: Array.from(text).length,
        }),
      ];
    }, messages.contextSaveDataFailed);

  const addFile: SubmitFile = (file, onProgress, signal) =>
    run(async () => {
      const id = await uploadContextFile(appId, file, { onProgress, signal });
      return [
        pendingItem({
          id,
          name: file.name,
          type: fileType(file.name),
          source: "local files",
          size: file.size,
        }),
      ];
    }, messages.contextUploadFailed);

  const addWebsite = (url: string) =>
    run(async () => {
      const [id] = await ingestConnectorItems(appId, [{ source: "web scraper", url }]);
      return id ? [pendingItem({ id, name: siteName(url), type: "web page", source: "web scraper" })] : [];
    }, messages.contextUploadDataFailed);

  const addFiles = (provider: ConnectorId) => (files: ConnectorFile[]) =>
    run(async () => {
      const source = CONNECTORS[provider].source;
      const items = files.map((f) => ({
        source,
        externalFileId: f.externalFileId,
        name: f.name,
        type: f.type,
        ...(f.externalFileUrl ? { externalFileUrl: f.externalFileUrl } : {}),
      }));
      const created = await ingestConnectorItems(appId, items);
      return created.map((id, i) => {
        const file = files[i]!;
        return pendingItem({
          id,
          name: file.name,
          type: file.type,
          source,
          externalFileUrl: file.externalFileUrl ?? null,
        });
      });
    }, messages.contextUploadDataFailed);

  const chosen = OPTIONS.find((o) => o.id === option);

  let form: ReactNode = null;
  switch (option) {
    case "text":
      form = <TextSourceForm submitLabel={messages.dataSourceTextSubmit} submit={addText} />;
      break;
    case "csv":
    case "doc":
      form = (
        <FileSourceForm
          key={option}
          kind={option}
          maxBytes={caps.maxUploadBytes}
          submitLabel={messages.dataSourceFileSubmit}
          submit={addFile}
        />
      );
      break;
    case "website":
      form = (
        <WebsiteSourceForm
          maxDepth={caps.webScraperMaxDepth}
          maxPages={caps.webScraperMaxPages}
          submit={addWebsite}
        />
      );
      break;
    case "notion":
    case "google-drive":
      form = <ConnectorSourceForm key={option} provider={option} appId={appId} submit={addFiles(option)} />;
      break;
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="md">
        <DialogHeader>
          <DialogTitle>{messages.dataSourcesDialogTitle}</DialogTitle>
          <DialogDescription>{messages.dataSourcesDialogDescription}</DialogDescription>
        </DialogHeader>
        {chosen ? (
          <div className="grid gap-4">
            <div className="grid gap-1">
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="-ml-2 w-fit"
                onClick={() => choose(null)}
              >
                <ArrowLeftIcon aria-hidden="true" />
                {messages.dataSourcesDialogBack}
              </Button>
              <h3
                id={`${ids}-kind`}
                ref={headingRef}
                tabIndex={-1}
                className="font-medium focus:outline-none"
              >
                {messages[chosen.label]}
              </h3>
              <p className="text-sm text-muted-foreground">{messages[chosen.hint]}</p>
            </div>
            {form}
          </div>
        ) : (
          <ul ref={gridRef} className="grid gap-2 sm:grid-cols-2">
            {OPTIONS.map(({ id, icon: Icon, label, hint }) => (
              // The whole card takes the click (the button's ::after covers it); the button's
              // name is the kind, and the hint is its description.
              <li
                key={id}
                className="relative flex h-full items-start gap-3 rounded-lg border border-border p-3 transition-colors focus-within:ring-2 focus-within:ring-ring hover:bg-accent"
              >
                <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                <span className="grid gap-0.5">
                  <button
                    type="button"
                    data-option={id}
                    aria-describedby={`${ids}-${id}-hint`}
                    onClick={() => choose(id)}
                    className="text-left text-sm font-medium after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none"
                  >
                    {messages[label]}
                  </button>
                  <span id={`${ids}-${id}-hint`} className="text-xs text-muted-foreground">
                    {messages[hint]}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
