"use client";

import { PlusIcon, Trash2Icon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { RuleError } from "@/lib/apps/field-rules";
import { FIELD_LABEL_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { SwitchRow } from "../panel-parts";
import { addStep, type FieldsPatch, type FieldsValue, removeStep, setMultiStep, stepOf } from "./field-edits";

// Multi-step input: "can be switched on only when custom fields exist"; steps have generated
// 4-character ids and a title; each field picks its step in its details.

export function StepsEditor({
  value,
  onPatch,
}: {
  value: FieldsValue;
  onPatch: (patch: FieldsPatch) => void;
}) {
  const ids = useId();
  const [error, setError] = useState<RuleError | null>(null);
  const noFields = value.fields.length === 0;
  const on = value.isMultiStepInput;

  const apply = (outcome: { ok: true; value: FieldsPatch } | { ok: false; error: RuleError }) => {
    if (outcome.ok) {
      setError(null);
      onPatch(outcome.value);
    } else setError(outcome.error);
  };

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="grid gap-3 rounded-lg border border-border p-3 @md:p-4"
    >
      <h3 id={`${ids}-title`} className="text-sm font-semibold">
        {messages.stepsTitle}
      </h3>
      <SwitchRow
        switchFirst
        label={messages.stepsSwitch}
        hint={noFields ? messages.stepsNeedFields : messages.stepsHint}
        checked={on}
        // Off can always be chosen; on needs a field.
        disabled={noFields && !on}
        onCheckedChange={(checked) => apply(setMultiStep(value, checked))}
      />

      {on ? (
        <>
          <ol className="grid gap-2">
            {value.inputSteps.map((step, i) => {
              const n = i + 1;
              const count = value.fields.filter((f) => stepOf(f, value.inputSteps) === step.id).length;
              return (
                <li key={step.id} className="flex items-center gap-2">
                  <span aria-hidden="true" className="w-6 shrink-0 text-center text-sm text-muted-foreground">
                    {n}
                  </span>
                  <Input
                    value={step.title}
                    maxLength={FIELD_LABEL_MAX}
                    aria-label={fillTemplate(messages.stepTitle, { n })}
                    placeholder={fillTemplate(messages.stepTitlePlaceholder, { n })}
                    className="min-w-0 flex-1"
                    onChange={(e) =>
                      onPatch({
                        inputSteps: value.inputSteps.map((s) =>
                          s.id === step.id ? { ...s, title: e.target.value } : s,
                        ),
                      })
                    }
                  />
                  <span className="w-16 shrink-0 text-right text-xs text-muted-foreground">
                    {count === 1
                      ? messages.stepFieldCountOne
                      : fillTemplate(messages.stepFieldCount, { n: count })}
                  </span>
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    className="size-8 shrink-0 text-muted-foreground"
                    aria-label={fillTemplate(messages.stepRemove, { n })}
                    onClick={() => apply(removeStep(value, step.id))}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ol>
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                setError(null);
                onPatch({ inputSteps: addStep(value.inputSteps) });
              }}
            >
              <PlusIcon aria-hidden="true" />
              {messages.stepAdd}
            </Button>
          </div>
        </>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {fillTemplate(messages[error.key], error.vars ?? {})}
        </p>
      ) : null}
    </section>
  );
}
