"use client";

import { useEffect, useMemo, useState } from "react";
import { apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { LoadingLine } from "@/components/ui/loading-line";
import { CSV_MAPPING_HEADERS_MAX, CSV_PREVIEW_CELL_MAX, CSV_PREVIEW_ROWS } from "@/lib/constants";
import { schemaOfFields } from "@/lib/csv/fields-schema";
import { basicMapping, DEFAULT_SPLIT_CHARACTER, mappableFields } from "@/lib/csv/mapping";
import {
  CSV_DATA_TYPES,
  type CsvDataType,
  type CsvMapping,
  type GenerateMappingAnswer,
  SPLIT_CHARACTERS,
  type SplitCharacter,
} from "@/lib/csv/schemas";
import { messages } from "@/lib/messages";
import type { EntityView } from "@/lib/space/entities";
import { fillTemplate } from "@/lib/text";
import type { ChosenFile } from "./upload-step";

const SPLIT_LABEL: Record<SplitCharacter, string> = {
  ",": messages.csvSplitComma,
  ";": messages.csvSplitSemicolon,
  "|": messages.csvSplitPipe,
  "\n": messages.csvSplitLineBreak,
  "\t": messages.csvSplitTab,
};

/** Fields whose values the import does not take (each record gets its own); mapping one asks first. */
const BUILT_IN = new Set(["id", "creatorId"]);

/** The value of the field select that leaves a column out. */
const NONE = "";

const selectClass =
  "h-9 w-full min-w-0 rounded-md border border-border bg-background px-2 text-sm text-foreground shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50";

type Suggestion = { phase: "loading" } | { phase: "ready"; note: string; fallback: boolean };

/**
 * The second step: the first rows of the file, and per column the field it fills (or none), how
 * its values are read and, for multiselect, what separates them. The suggestion comes from the
 * model (POST /api/csv/generateMapping); when that fails, the basic name match with the spec's
 * message. Mapping a column to id or creatorId asks for a confirm before the import starts.
 */
export function MappingStep({
  entity,
  chosen,
  onBack,
  onImport,
}: {
  entity: EntityView;
  chosen: ChosenFile;
  onBack: () => void;
  onImport: (mappings: CsvMapping[]) => void;
}) {
  const schema = useMemo(() => schemaOfFields(entity.fields), [entity.fields]);
  const fields = useMemo(() => mappableFields(schema), [schema]);
  const [mappings, setMappings] = useState<CsvMapping[]>(() => basicMapping(chosen.headers, fields));
  const [suggestion, setSuggestion] = useState<Suggestion>({ phase: "loading" });
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    let live = true;
    const fallback = () => {
      if (!live) return;
      setMappings(basicMapping(chosen.headers, fields));
      setSuggestion({ phase: "ready", note: messages.csvMappingFallback, fallback: true });
    };
    // The model is asked about the headers it can take; a wider file is matched by name.
    if (chosen.headers.length > CSV_MAPPING_HEADERS_MAX) {
      fallback();
      return;
    }
    const previewData = chosen.rows.map((row) =>
      Object.fromEntries(chosen.headers.map((h) => [h, String(row[h] ?? "").slice(0, CSV_PREVIEW_CELL_MAX)])),
    );
    apiFetch<GenerateMappingAnswer>("/api/csv/generateMapping", {
      body: { headers: chosen.headers, previewData, schema, entityName: entity.name },
    })
      .then((answer) => {
        if (!live) return;
        setMappings(answer.mappings);
        setSuggestion(
          answer.fallback
            ? { phase: "ready", note: answer.message ?? messages.csvMappingFallback, fallback: true }
            : { phase: "ready", note: messages.csvMappingSuggested, fallback: false },
        );
      })
      .catch(fallback);
    return () => {
      live = false;
    };
  }, [chosen, fields, schema, entity.name]);

  const update = (i: number, change: Partial<CsvMapping>) =>
    setMappings((all) =>
      all.map((m, j) => {
        if (j !== i) return m;
        const next = { ...m, ...change };
        return {
          ...next,
          splitCharacter:
            next.dataType === "multiselect" ? (next.splitCharacter ?? DEFAULT_SPLIT_CHARACTER) : null,
        };
      }),
    );

  const chooseField = (i: number, name: string) => {
    const field = fields.find((f) => f.name === name);
    update(i, field ? { schemaField: field.name, dataType: field.dataType } : { schemaField: null });
  };

  const mapped = mappings.filter((m) => m.schemaField !== null);
  const builtIns = mapped.filter((m) => BUILT_IN.has(m.schemaField ?? ""));
  const start = () => (builtIns.length > 0 ? setConfirming(true) : onImport(mappings));
  const previewRows = chosen.rows.slice(0, CSV_PREVIEW_ROWS);

  return (
    <div className="grid min-w-0 gap-4">
      {suggestion.phase === "loading" ? (
        <LoadingLine text={messages.csvMappingLoading} />
      ) : (
        <p
          role="status"
          className={
            suggestion.fallback
              ? "rounded-md border border-border bg-muted px-3 py-2 text-sm"
              : "text-sm text-muted-foreground"
          }
        >
          {suggestion.note}
        </p>
      )}

      <div className="grid min-w-0 gap-2">
        <h3 id="csv-import-preview" className="text-sm font-medium">
          {fillTemplate(messages.csvImportPreview, { n: previewRows.length })}
        </h3>
        <section
          aria-labelledby="csv-import-preview"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it
          tabIndex={0}
          className="max-w-full overflow-x-auto rounded-md border border-border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <table className="w-max min-w-full text-xs">
            <thead className="bg-muted">
              <tr>
                {chosen.headers.map((h) => (
                  <th key={h} scope="col" className="px-2 py-1 text-left font-medium whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {previewRows.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity of their own
                <tr key={r} className="border-t border-border">
                  {chosen.headers.map((h) => (
                    <td key={h} className="max-w-48 truncate px-2 py-1 whitespace-nowrap">
                      {row[h] ?? ""}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <fieldset className="grid min-w-0 gap-2" disabled={suggestion.phase === "loading"}>
        <legend className="mb-2 text-sm font-medium">{messages.csvImportMappingLegend}</legend>
        <div className="hidden grid-cols-4 gap-2 text-xs text-muted-foreground sm:grid" aria-hidden="true">
          <span>{messages.csvImportColumn}</span>
          <span>{messages.csvImportField}</span>
          <span>{messages.csvImportType}</span>
          <span>{messages.csvImportSplit}</span>
        </div>
        <ul className="grid gap-3 sm:gap-2">
          {mappings.map((m, i) => (
            <li
              key={m.csvHeader}
              data-testid="csv-mapping-row"
              className="grid grid-cols-2 items-center gap-2 border-b border-border pb-3 sm:grid-cols-4 sm:border-0 sm:pb-0"
            >
              <span className="col-span-2 truncate text-sm font-medium sm:col-span-1" title={m.csvHeader}>
                {m.csvHeader}
              </span>
              <select
                aria-label={fillTemplate(messages.csvImportFieldOf, { column: m.csvHeader })}
                className={selectClass}
                value={m.schemaField ?? NONE}
                onChange={(e) => chooseField(i, e.target.value)}
              >
                <option value={NONE}>{messages.csvImportDontImport}</option>
                {fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.name}
                  </option>
                ))}
              </select>
              <select
                aria-label={fillTemplate(messages.csvImportTypeOf, { column: m.csvHeader })}
                className={selectClass}
                value={m.dataType}
                disabled={m.schemaField === null}
                onChange={(e) => update(i, { dataType: e.target.value as CsvDataType })}
              >
                {CSV_DATA_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
              {m.dataType === "multiselect" && m.schemaField !== null ? (
                <select
                  aria-label={fillTemplate(messages.csvImportSplitOf, { column: m.csvHeader })}
                  className={selectClass}
                  value={m.splitCharacter ?? DEFAULT_SPLIT_CHARACTER}
                  onChange={(e) => update(i, { splitCharacter: e.target.value as SplitCharacter })}
                >
                  {SPLIT_CHARACTERS.map((c) => (
                    <option key={c} value={c}>
                      {SPLIT_LABEL[c]}
                    </option>
                  ))}
                </select>
              ) : (
                <span className="hidden sm:block" />
              )}
            </li>
          ))}
        </ul>
      </fieldset>

      {mapped.length === 0 && suggestion.phase === "ready" ? (
        <p className="text-sm text-muted-foreground">{messages.csvImportNothingMapped}</p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onBack}>
          {messages.csvImportBack}
        </Button>
        <Button onClick={start} disabled={suggestion.phase === "loading" || mapped.length === 0}>
          {messages.csvImportStart}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={messages.csvImportBuiltInTitle}
        description={fillTemplate(messages.csvImportBuiltInText, {
          columns: builtIns.map((m) => m.csvHeader).join(", "),
        })}
        confirmLabel={messages.csvImportBuiltInConfirm}
        onConfirm={() => {
          setConfirming(false);
          onImport(mappings);
        }}
      />
    </div>
  );
}
