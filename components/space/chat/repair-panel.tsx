"use client";

import { WandSparklesIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { loadModels } from "@/components/ai/model-list";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import type { ModelListAnswer } from "@/lib/ai/schemas";
import {
  REPAIR_APPLIED_SHOW_MS,
  REPAIR_ITERATIONS_DEFAULT,
  REPAIR_ITERATIONS_MAX,
  REPAIR_ITERATIONS_MIN,
} from "@/lib/constants";
import type { MergeResult } from "@/lib/functions/merge-and-deploy";
import { messages } from "@/lib/messages";
import type { RepairAnswer } from "@/lib/space/repair-schemas";
import type { ValidationIssue } from "@/lib/space/validate-schemas";
import { fillTemplate } from "@/lib/text";
import { CompareDialog } from "./compare-dialog";
import { RepairResult, type RepairSide } from "./repair-result";

/** What the admin chose last, kept in this browser. */
const ITERATIONS_KEY = "space-repair-iterations";
const CUSTOM_MODEL_KEY = "space-repair-custom-model";
const ITERATION_CHOICES = Array.from(
  { length: REPAIR_ITERATIONS_MAX - REPAIR_ITERATIONS_MIN + 1 },
  (_, i) => REPAIR_ITERATIONS_MIN + i,
);

function storedIterations(): number {
  const n = Number(window.localStorage.getItem(ITERATIONS_KEY));
  return ITERATION_CHOICES.includes(n) ? n : REPAIR_ITERATIONS_DEFAULT;
}

/** The default model's repair, and in compare mode the custom model's beside it. */
type Which = "default" | "custom";
type Sides = Partial<Record<Which, RepairSide>>;

type Models = { state: "loading" } | { state: "ready"; list: ModelListAnswer } | { state: "failed" };

/** The models a custom repair can use: every listed one but the default (which the other side runs). */
const customChoices = (list: ModelListAnswer) => list.models.filter((m) => m.id !== list.defaultModel);

/**
 * Try Repair (then Re-repair) under the validation's issues: the model fixes the files with issues
 * (POST .../versions/{versionId}/repair, 1-5 iterations), and the result shows the issues before
 * and after and the files it repaired; Apply merges those files as an autofix (the chat's notice),
 * and the chat and the preview then follow the new version. Compare mode repairs with the default
 * model and a custom one at once, and shows both results side by side: either can be applied.
 */
export function RepairPanel({
  appId,
  versionId,
  issues,
  onApplied,
}: {
  appId: string;
  versionId: string;
  issues: ValidationIssue[];
  onApplied?: (answer: MergeResult) => void;
}) {
  const [sides, setSides] = useState<Sides>({});
  /** The side whose result is compared with the current files, to apply some of its files only. */
  const [viewing, setViewing] = useState<Which | null>(null);
  const [iterations, setIterations] = useState(REPAIR_ITERATIONS_DEFAULT);
  const [comparing, setComparing] = useState(false);
  const [models, setModels] = useState<Models>({ state: "loading" });
  const [customModel, setCustomModel] = useState<string | null>(null);
  /** The custom model of the last compare, named above its result. */
  const [askedModel, setAskedModel] = useState<string | null>(null);
  const iterationsId = useId();
  const compareId = useId();
  const modelId = useId();
  useEffect(() => setIterations(storedIterations()), []);

  // The model list is read when compare mode is first turned on.
  useEffect(() => {
    if (!comparing || models.state === "ready") return;
    let live = true;
    loadModels().then(
      (list) => {
        if (!live) return;
        setModels({ state: "ready", list });
        const choices = customChoices(list);
        const stored = window.localStorage.getItem(CUSTOM_MODEL_KEY);
        setCustomModel(choices.find((m) => m.id === stored)?.id ?? choices[0]?.id ?? null);
      },
      () => live && setModels({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [comparing, models.state]);

  const running = Object.values(sides).some((s) => s.phase === "running");
  const locked = Object.values(sides).some(
    (s) => s.phase === "done" && (s.apply === "applying" || s.apply === "applied"),
  );
  const defaultModel = models.state === "ready" ? models.list.defaultModel : null;
  const canCompare = comparing && customModel !== null;

  function chooseIterations(n: number) {
    setIterations(n);
    window.localStorage.setItem(ITERATIONS_KEY, String(n));
  }

  function chooseModel(id: string) {
    setCustomModel(id);
    window.localStorage.setItem(CUSTOM_MODEL_KEY, id);
  }

  const put = (which: Which, side: RepairSide) => setSides((s) => ({ ...s, [which]: side }));

  async function repairWith(which: Which, model: string | null, compare: boolean) {
    try {
      const result = await apiFetch<RepairAnswer>(
        `/api/apps/${encodeURIComponent(appId)}/versions/${encodeURIComponent(versionId)}/repair`,
        {
          method: "POST",
          body: { initialIssues: issues, iterations, ...(model ? { customModel: model } : {}) },
        },
      );
      put(which, { phase: "done", result, apply: "ready" });
    } catch (err) {
      // The builder's model limit says itself; anything else is the spec's words for this side.
      const message =
        err instanceof ApiError && err.status === 429
          ? err.message
          : !compare
            ? messages.repairFailed
            : which === "custom"
              ? messages.repairFailedCustom
              : messages.repairFailedDefault;
      put(which, { phase: "failed", message });
    }
  }

  /** One repair, or in compare mode the default model's and the custom model's in parallel. */
  function repair() {
    const lastOf = (side: RepairSide | undefined) =>
      side?.phase === "done" ? side.result : side?.phase === "running" ? side.last : null;
    const compare = canCompare;
    setSides({
      default: { phase: "running", last: lastOf(sides.default) },
      ...(compare ? { custom: { phase: "running", last: lastOf(sides.custom) } } : {}),
    });
    void repairWith("default", null, compare);
    if (compare) {
      setAskedModel(customModel);
      void repairWith("custom", customModel, compare);
    }
  }

  async function apply(which: Which, result: RepairAnswer) {
    put(which, { phase: "done", result, apply: "applying" });
    try {
      const answer = await apiFetch<MergeResult>(`/api/apps/${encodeURIComponent(appId)}/merge`, {
        method: "POST",
        body: { files: result.repairedFiles, autofix: true },
      });
      applied(which, result, answer);
    } catch {
      put(which, { phase: "done", result, apply: "failed" });
    }
  }

  function applied(which: Which, result: RepairAnswer, answer: MergeResult) {
    put(which, { phase: "done", result, apply: "applied" });
    // Applied shows a moment; then the chat and the preview move to the new version.
    window.setTimeout(() => onApplied?.(answer), REPAIR_APPLIED_SHOW_MS);
  }

  const label = running
    ? messages.repairRunning
    : Object.keys(sides).length === 0
      ? messages.repairButton
      : messages.rerepairButton;
  const shown = (["default", "custom"] as const).filter((w) => sides[w]);
  const heading = (which: Which) =>
    shown.length < 2
      ? null
      : which === "default"
        ? fillTemplate(messages.repairDefaultSide, { model: defaultModel ?? "" })
        : fillTemplate(messages.repairCustomSide, { model: askedModel ?? "" });
  const viewed = viewing ? sides[viewing] : undefined;

  return (
    <div className="mt-2 grid gap-2 border-t border-border pt-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant="outline" onClick={repair} disabled={running || locked}>
          <WandSparklesIcon aria-hidden />
          {label}
        </Button>
        <label htmlFor={iterationsId} className="ml-auto text-xs text-muted-foreground">
          {messages.repairIterations}
        </label>
        <select
          id={iterationsId}
          value={iterations}
          onChange={(e) => chooseIterations(Number(e.target.value))}
          className="h-7 rounded border border-input bg-background px-1 text-xs"
        >
          {ITERATION_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Checkbox id={compareId} checked={comparing} onCheckedChange={(v) => setComparing(v === true)} />
        <label htmlFor={compareId}>{messages.repairCompareModels}</label>
        {comparing ? (
          models.state === "failed" ? (
            <p role="alert" className="text-destructive">
              {messages.repairModelsFailed}
            </p>
          ) : models.state === "ready" && customChoices(models.list).length === 0 ? (
            <p className="text-muted-foreground">{messages.repairNoOtherModel}</p>
          ) : (
            <>
              <label htmlFor={modelId} className="ml-auto text-muted-foreground">
                {messages.repairCustomModel}
              </label>
              <select
                id={modelId}
                value={customModel ?? ""}
                onChange={(e) => chooseModel(e.target.value)}
                disabled={models.state !== "ready"}
                aria-busy={models.state === "loading"}
                className="h-7 max-w-40 rounded border border-input bg-background px-1"
              >
                {models.state === "ready" ? (
                  customChoices(models.list).map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.label}
                    </option>
                  ))
                ) : (
                  <option value="">{messages.repairModelsLoading}</option>
                )}
              </select>
            </>
          )
        ) : null}
      </div>
      {shown.length > 0 ? (
        // Side by side when the panel is wide enough (it widens in compare mode), else one above the other.
        <div className="grid gap-3 @md:grid-cols-2" data-repair-sides={shown.length}>
          {shown.map((which) => (
            <RepairResult
              key={which}
              heading={heading(which)}
              side={sides[which]!}
              locked={locked}
              onApply={(result) => void apply(which, result)}
              onView={() => setViewing(which)}
            />
          ))}
        </div>
      ) : null}
      {viewing && viewed?.phase === "done" ? (
        <CompareDialog
          appId={appId}
          source={{ kind: "repair", files: viewed.result.repairedFiles }}
          onMerged={(answer) => applied(viewing, viewed.result, answer)}
          onOpenChange={(open) => setViewing(open ? viewing : null)}
        />
      ) : null}
    </div>
  );
}
