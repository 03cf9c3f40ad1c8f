"use client";

import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import * as React from "react";
import { safeImageSrc } from "@/lib/apps/safe-link";
import type { AppContent, CustomField, InputStep } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/plans/text";
import { cn } from "@/lib/utils";

// The input of a published tool: the main input with its examples, the custom fields by type,
// and the steps of a multi-step input. Runs arrive with the next issue: the Run button is shown
// disabled with a note that says so, and nothing is sent anywhere.

type FormContent = Pick<
  AppContent,
  | "fields"
  | "isMultiStepInput"
  | "inputSteps"
  | "examples"
  | "inputLabel"
  | "inputPlaceholder"
  | "isInputHidden"
  | "isInputCollapsed"
>;

const controlClass =
  "w-full rounded-md border border-border bg-background px-3 py-2 text-base text-foreground shadow-xs placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 @md:text-sm";

const chipClass =
  "inline-flex min-h-9 cursor-pointer items-center gap-2 rounded-full border border-border bg-muted px-3 py-1.5 text-sm text-foreground transition-colors hover:bg-accent has-[:checked]:border-foreground has-[:checked]:bg-foreground has-[:checked]:text-background has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring";

/** The steps as shown: fields of an unknown or missing step go to the first one. */
function groupBySteps(steps: readonly InputStep[], fields: readonly CustomField[]) {
  const known = new Set(steps.map((s) => s.id));
  return steps.map((step, i) => ({
    step,
    fields: fields.filter((f) => (f.stepId && known.has(f.stepId) ? f.stepId === step.id : i === 0)),
  }));
}

export function PublicAppForm({
  content,
  buttonStyle,
}: {
  content: FormContent;
  /** The builder's button colours, already made readable. */
  buttonStyle: React.CSSProperties;
}) {
  const id = React.useId();
  const [input, setInput] = React.useState("");
  const [expanded, setExpanded] = React.useState(false);
  const [stepIndex, setStepIndex] = React.useState(0);
  const inputRef = React.useRef<HTMLTextAreaElement>(null);
  const stepRefs = React.useRef<(HTMLFieldSetElement | null)[]>([]);

  const multiStep = content.isMultiStepInput && content.inputSteps.length > 0 && content.fields.length > 0;
  const groups = multiStep
    ? groupBySteps(content.inputSteps, content.fields)
    : [{ step: null, fields: content.fields }];
  const current = Math.min(stepIndex, groups.length - 1);
  const last = current === groups.length - 1;
  const examples = content.examples.filter((e) => e.trim() !== "");
  const inputId = `${id}-input`;
  const noteId = `${id}-note`;

  function fillExample(example: string) {
    setInput(example);
    setExpanded(true);
    // The textarea exists once expanded; focus it on the next frame so typing can go on.
    requestAnimationFrame(() => inputRef.current?.focus());
  }

  /** Checks the current step's fields before moving on, with the browser's own messages. */
  function stepIsValid(): boolean {
    const set = stepRefs.current[current];
    if (!set) return true;
    for (const group of set.querySelectorAll<HTMLElement>("[data-required-group]")) {
      const boxes = [...group.querySelectorAll<HTMLInputElement>("input[type=checkbox]")];
      boxes[0]?.setCustomValidity(boxes.some((b) => b.checked) ? "" : messages.publicChooseOne);
    }
    for (const el of set.querySelectorAll<HTMLInputElement>("input, select, textarea")) {
      if (!el.checkValidity()) {
        el.reportValidity();
        return false;
      }
    }
    return true;
  }

  function goTo(index: number) {
    setStepIndex(index);
    requestAnimationFrame(() => stepRefs.current[index]?.querySelector<HTMLElement>("legend, h2")?.focus());
  }

  const mainInput = content.isInputHidden ? null : (
    <div className="grid gap-2">
      {content.isInputCollapsed && (
        <button
          type="button"
          className="inline-flex items-center gap-1.5 justify-self-start rounded-md text-sm font-medium text-foreground underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-expanded={expanded}
          aria-controls={`${id}-main`}
          onClick={() => setExpanded((v) => !v)}
        >
          <ChevronDownIcon
            className={cn("size-4 transition-transform", expanded && "rotate-180")}
            aria-hidden
          />
          {expanded ? messages.publicHideInput : content.inputLabel || messages.publicShowInput}
        </button>
      )}
      <div id={`${id}-main`} className="grid gap-2" hidden={content.isInputCollapsed && !expanded}>
        {/* Without a label of its own, the input is named by the placeholder or the generic one. */}
        <label
          htmlFor={inputId}
          className={cn(
            "text-sm font-medium",
            (content.isInputCollapsed || !content.inputLabel) && "sr-only",
          )}
        >
          {content.inputLabel || content.inputPlaceholder || messages.publicShowInput}
        </label>
        <textarea
          ref={inputRef}
          id={inputId}
          name="input"
          rows={3}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder={content.inputPlaceholder || undefined}
          className={cn(controlClass, "min-h-24 resize-y")}
        />
      </div>
      {examples.length > 0 && (
        <div className="grid gap-2">
          <span className="text-xs font-medium text-muted-foreground" id={`${id}-examples`}>
            {messages.publicExamples}
          </span>
          <ul className="flex flex-wrap gap-2" aria-labelledby={`${id}-examples`}>
            {examples.map((example) => (
              <li key={example} className="min-w-0 max-w-full">
                <button
                  type="button"
                  className="max-w-full truncate rounded-full border border-border bg-muted px-3 py-1.5 text-left text-sm text-foreground transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  onClick={() => fillExample(example)}
                  title={example}
                >
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );

  const runButton = (
    <button
      type="submit"
      disabled
      aria-describedby={noteId}
      className="inline-flex h-10 items-center justify-center rounded-md px-6 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60"
      style={buttonStyle}
    >
      {messages.publicRun}
    </button>
  );
  const runNote = (
    <p id={noteId} className="text-sm text-muted-foreground">
      {messages.publicRunsNotAvailable}
    </p>
  );

  return (
    <form className="grid gap-5" noValidate={false} onSubmit={(e) => e.preventDefault()}>
      {multiStep && (
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground" aria-live="polite">
          {fillTemplate(messages.publicStepOf, { n: current + 1, total: groups.length })}
        </p>
      )}
      {groups.map(({ step, fields }, i) => (
        <fieldset
          key={step?.id ?? "all"}
          ref={(el) => {
            stepRefs.current[i] = el;
          }}
          hidden={i !== current}
          className="grid min-w-0 gap-5"
        >
          {step && (
            <legend tabIndex={-1} className="mb-4 text-lg font-semibold text-foreground focus:outline-none">
              {step.title || fillTemplate(messages.publicStepUntitled, { n: i + 1 })}
            </legend>
          )}
          {i === 0 && mainInput}
          {fields.map((field) => (
            <FieldControl key={field.name} field={field} id={`${id}-f-${field.name}`} />
          ))}
        </fieldset>
      ))}
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          {multiStep && current > 0 && (
            <button
              type="button"
              onClick={() => goTo(current - 1)}
              className="inline-flex h-10 items-center gap-1 rounded-md border border-border bg-background px-4 text-sm font-medium text-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <ChevronLeftIcon className="size-4" aria-hidden />
              {messages.publicBack}
            </button>
          )}
          {last ? (
            runButton
          ) : (
            <button
              type="button"
              onClick={() => stepIsValid() && goTo(current + 1)}
              className="inline-flex h-10 items-center gap-1 rounded-md px-4 text-sm font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
              style={buttonStyle}
            >
              {messages.publicNext}
              <ChevronRightIcon className="size-4" aria-hidden />
            </button>
          )}
        </div>
        {last && runNote}
      </div>
    </form>
  );
}

/** A field's label text, with the star of a required field. */
function LabelText({ field }: { field: CustomField }) {
  return (
    <>
      {field.label || field.name}
      {field.required && (
        <span className="ml-0.5 text-destructive" aria-hidden>
          *
        </span>
      )}
    </>
  );
}

function OptionIcon({ src }: { src: string | null }) {
  const safe = safeImageSrc(src);
  // biome-ignore lint/performance/noImgElement: builder uploads of any size, shown as they are
  return safe ? <img src={safe} alt="" className="size-5 shrink-0 rounded object-cover" /> : null;
}

function FieldControl({ field, id }: { field: CustomField; id: string }) {
  // Options with icons read better as choices to tap; plain ones as a native select.
  if (field.type === "multiselect" || (field.type === "select" && field.options.some((o) => o.iconUrl))) {
    return <ChoiceGroup field={field} id={id} multiple={field.type === "multiselect"} />;
  }
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        <LabelText field={field} />
      </label>
      <LabelledControl field={field} id={id} />
    </div>
  );
}

/** The control of a field shown under its own label (every type but the chip groups). */
function LabelledControl({ field, id }: { field: CustomField; id: string }) {
  const placeholder = field.placeholder || undefined;
  const common = { id, name: field.name, required: field.required, placeholder };
  const box = cn(controlClass, "h-10");

  switch (field.type) {
    case "long_text":
      return <textarea {...common} rows={4} className={cn(controlClass, "min-h-24 resize-y")} />;
    case "email":
      return <input {...common} type="email" autoComplete="email" className={box} />;
    case "place":
      return <input {...common} type="text" autoComplete="street-address" className={box} />;
    case "photo":
      return (
        <input
          id={id}
          name={field.name}
          required={field.required}
          type="file"
          accept="image/*"
          className={cn(
            controlClass,
            "h-auto py-1.5 file:mr-3 file:rounded file:border-0 file:bg-muted file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground",
          )}
        />
      );
    case "height":
    case "weight": {
      const unit = field.type === "height" ? messages.publicUnitCm : messages.publicUnitKg;
      return (
        <div className="flex items-stretch">
          <input
            {...common}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            aria-describedby={`${id}-unit`}
            className={cn(controlClass, "h-10 rounded-r-none")}
          />
          <span
            id={`${id}-unit`}
            className="inline-flex items-center rounded-r-md border border-l-0 border-border bg-muted px-3 text-sm text-muted-foreground"
          >
            {unit}
          </span>
        </div>
      );
    }
    case "select":
      return (
        <OptionSelect field={field} id={id} firstDisabled={field.required}>
          {field.placeholder || messages.publicChoose}
        </OptionSelect>
      );
    case "tool_item_select": {
      // Its choices are the items of the app's data, which arrive with data sources.
      const empty = field.options.length === 0;
      return (
        <OptionSelect field={field} id={id} disabled={empty}>
          {empty ? messages.publicNoItems : field.placeholder || messages.publicChoose}
        </OptionSelect>
      );
    }
    default:
      return <input {...common} type="text" className={box} />;
  }
}

/** A native select of the field's options, after an empty first choice that says `children`. */
function OptionSelect({
  field,
  id,
  disabled,
  firstDisabled,
  children,
}: {
  field: CustomField;
  id: string;
  disabled?: boolean;
  firstDisabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <select
      id={id}
      name={field.name}
      required={field.required}
      disabled={disabled}
      defaultValue=""
      className={cn(controlClass, "h-10")}
    >
      <option value="" disabled={firstDisabled}>
        {children}
      </option>
      {field.options.map((o) => (
        <option key={o.label} value={o.label}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** Options as chips: radios for a select with icons, checkboxes for a multiselect. */
function ChoiceGroup({ field, id, multiple }: { field: CustomField; id: string; multiple: boolean }) {
  return (
    <fieldset
      className="grid min-w-0 gap-2"
      data-required-group={multiple && field.required ? "" : undefined}
      aria-describedby={field.placeholder ? `${id}-hint` : undefined}
    >
      <legend className="mb-2 text-sm font-medium text-foreground">
        <LabelText field={field} />
      </legend>
      {field.placeholder && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {field.placeholder}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {field.options.map((o, i) => (
          <label key={o.label} className={chipClass}>
            <input
              type={multiple ? "checkbox" : "radio"}
              name={field.name}
              value={o.label}
              required={!multiple && field.required && i === 0 ? true : undefined}
              className="sr-only"
              onChange={(e) => e.currentTarget.setCustomValidity("")}
            />
            <OptionIcon src={o.iconUrl} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
