"use client";

import { useEffect, useState } from "react";
import { loadModels } from "@/components/ai/model-list";
import type { ControlProps } from "@/components/editor/panel-parts";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { ModelListAnswer } from "@/lib/ai/schemas";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { modelChoices } from "./settings-rules";

// The model dropdown: GET /api/models (components/ai/model-list.ts). "Default" stands for aiModel
// null: the server's default model is used.

/** Radix Select has no empty value; this one stands for "no model set" (null). */
const DEFAULT_VALUE = "__default__";

export type ModelNotice = "failed" | "notConfigured" | null;

type ModelList = { state: "loading" } | { state: "ready"; list: ModelListAnswer } | { state: "failed" };

export function ModelSelect({
  value,
  onChange,
  disabled,
  control,
  onNotice,
}: {
  value: string | null;
  onChange: (model: string | null) => void;
  disabled?: boolean;
  control: ControlProps;
  /** What the list says about the models: its request failed, or no model is configured. */
  onNotice: (notice: ModelNotice) => void;
}) {
  const [models, setModels] = useState<ModelList>({ state: "loading" });

  useEffect(() => {
    let live = true;
    loadModels().then(
      (list) => {
        if (!live) return;
        setModels({ state: "ready", list });
        onNotice(list.source === "not_configured" ? "notConfigured" : null);
      },
      () => {
        if (!live) return;
        setModels({ state: "failed" });
        onNotice("failed");
      },
    );
    return () => {
      live = false;
    };
  }, [onNotice]);

  const list = models.state === "ready" ? models.list : null;
  const choices = modelChoices(list?.models ?? null, value);
  const defaultLabel = list
    ? (list.models.find((m) => m.id === list.defaultModel)?.label ?? list.defaultModel)
    : null;

  return (
    <Select
      value={value ?? DEFAULT_VALUE}
      onValueChange={(next) => onChange(next === DEFAULT_VALUE ? null : next)}
      disabled={disabled}
    >
      <SelectTrigger {...control} aria-busy={models.state === "loading"}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={DEFAULT_VALUE}>
          {defaultLabel
            ? fillTemplate(messages.appSettingsModelDefault, { model: defaultLabel })
            : messages.appSettingsModelDefaultUnknown}
        </SelectItem>
        {choices.map((m) => (
          <SelectItem key={m.id} value={m.id}>
            {m.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
