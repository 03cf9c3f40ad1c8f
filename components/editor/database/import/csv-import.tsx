"use client";

import { UploadIcon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { CsvImportView } from "@/lib/app-data/csv-import";
import { countCsvRows } from "@/lib/csv/preview";
import type { CsvMapping } from "@/lib/csv/schemas";
import { messages } from "@/lib/messages";
import type { EntityView } from "@/lib/space/entities";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import {
  IMPORT_POLL_MS,
  importEnded,
  readImport,
  rememberedImport,
  rememberImport,
  uploadImport,
} from "./import-api";
import { MappingStep } from "./mapping-step";
import { CompleteStep, ImportingStep } from "./progress-step";
import { type ChosenFile, UploadStep } from "./upload-step";

type Step =
  | { step: "upload"; error: string | null }
  | { step: "mapping"; chosen: ChosenFile }
  | {
      step: "importing";
      /** Null while the file is sent. */
      importId: string | null;
      uploadPercent: number | null;
      rows: number | null;
      view: CsvImportView | null;
    }
  | { step: "complete"; view: CsvImportView };

const STEPS = [
  ["upload", messages.csvImportStepUpload],
  ["mapping", messages.csvImportStepMapping],
  ["importing", messages.csvImportStepImporting],
  ["complete", messages.csvImportStepComplete],
] as const;

/**
 * The Database panel's Import CSV button and its wizard: upload, mapping, importing, complete.
 * The import runs as a job on the server; its state is read once a second while the wizard shows
 * it. A running import is remembered in this browser, so a panel opened again (after the tab was
 * closed) shows its progress. `onImported` reloads the grid once rows are in.
 */
export function CsvImportButton({
  appId,
  entity,
  onImported,
}: {
  appId: string;
  entity: EntityView;
  onImported: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<Step>({ step: "upload", error: null });
  const name = entity.name;

  // An import left running (a closed tab, a reload): shown again with its progress.
  useEffect(() => {
    const running = rememberedImport(appId, name);
    if (!running) return;
    let live = true;
    readImport(appId, name, running.importId)
      .then((view) => {
        if (!live) return;
        if (importEnded(view)) {
          rememberImport(appId, name, null);
          return;
        }
        setState({
          step: "importing",
          importId: running.importId,
          uploadPercent: null,
          rows: running.rows,
          view,
        });
        setOpen(true);
      })
      .catch((e) => {
        if (e instanceof ApiError && e.status === 404) rememberImport(appId, name, null);
      });
    return () => {
      live = false;
    };
  }, [appId, name]);

  const importId = state.step === "importing" ? state.importId : null;
  useEffect(() => {
    if (!importId) return;
    let live = true;
    const tick = async () => {
      try {
        const view = await readImport(appId, name, importId);
        if (!live) return;
        if (importEnded(view)) {
          rememberImport(appId, name, null);
          setState({ step: "complete", view });
          if (view.imported > 0) onImported();
        } else {
          setState((s) => (s.step === "importing" && s.importId === importId ? { ...s, view } : s));
        }
      } catch {
        // A missed reading: the next one comes in a second.
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), IMPORT_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [appId, name, importId, onImported]);

  const start = useCallback(
    async (chosen: ChosenFile, mappings: CsvMapping[]) => {
      setState({ step: "importing", importId: null, uploadPercent: 0, rows: null, view: null });
      const onProgress = (percent: number) =>
        setState((s) =>
          s.step === "importing" && s.importId === null ? { ...s, uploadPercent: percent } : s,
        );
      const [rows, answer] = await Promise.all([
        countCsvRows(chosen.file),
        uploadImport(appId, name, chosen.file, mappings, onProgress),
      ]);
      if ("error" in answer) {
        setState({ step: "upload", error: answer.error });
        return;
      }
      rememberImport(appId, name, { importId: answer.importId, rows });
      setState({ step: "importing", importId: answer.importId, uploadPercent: null, rows, view: null });
    },
    [appId, name],
  );

  const current = state.step;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <UploadIcon aria-hidden />
        {messages.csvImportOpen}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent size="lg" aria-describedby={undefined} className="min-w-0">
          <DialogHeader>
            <DialogTitle>{fillTemplate(messages.csvImportTitle, { entity: name })}</DialogTitle>
          </DialogHeader>
          <ol aria-label={messages.csvImportSteps} className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
            {STEPS.map(([step, label], i) => (
              <li
                key={step}
                aria-current={step === current ? "step" : undefined}
                className={cn(
                  "text-muted-foreground",
                  step === current && "font-semibold text-foreground underline underline-offset-4",
                )}
              >
                {i + 1}. {label}
              </li>
            ))}
          </ol>
          {state.step === "upload" ? (
            <UploadStep
              initialError={state.error}
              onChosen={(chosen) => setState({ step: "mapping", chosen })}
            />
          ) : state.step === "mapping" ? (
            <MappingStep
              entity={entity}
              chosen={state.chosen}
              onBack={() => setState({ step: "upload", error: null })}
              onImport={(mappings) => void start(state.chosen, mappings)}
            />
          ) : state.step === "importing" ? (
            <ImportingStep uploadPercent={state.uploadPercent} view={state.view} rows={state.rows} />
          ) : (
            <CompleteStep
              entity={name}
              view={state.view}
              onDone={() => {
                setOpen(false);
                setState({ step: "upload", error: null });
              }}
              onAnother={() => setState({ step: "upload", error: null })}
            />
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
