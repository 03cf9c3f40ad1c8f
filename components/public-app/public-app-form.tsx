"use client";

import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, LoaderCircleIcon } from "lucide-react";
import dynamic from "next/dynamic";
import * as React from "react";
import type { PublicContent, PublicField } from "@/lib/apps/public-content";
import { safeImageSrc } from "@/lib/apps/safe-link";
import type { InputStep } from "@/lib/apps/schemas";
import { RESERVED_FIELD_NAME, RUN_INPUT_VALUE_MAX } from "@/lib/constants";
import { publicAppMessages } from "@/lib/messages/public-app";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { checkFields, type FieldError, type FormValues } from "./form-values";
import type { PhotoTarget } from "./upload-run-photo";

// The input of a published tool: the main input with its examples, the custom fields by type,
// and the steps of a multi-step input. Controlled: the page around it (PublicTool) holds the
// values, prefills them and sends them. The form checks what the server would refuse first (a
// required field left empty, a height that is not a number) with the server's own messages, and
// marks the field of an error either of them found: its step opens, it is focused, and its
// message is read with it.
// A photo field is a picker of its own (photo-picker.tsx): the photo uploads as soon as it is
// chosen, and a run waits for an upload under way.
// The picker and its upload code load only with a form that has a photo field; rendered on the
// server like the rest of the form, it paints with the page and keeps its place until its code
// arrives.
const PhotoPicker = dynamic(() => import("./photo-picker").then((m) => m.PhotoPicker));

export type FormContent = Pick<
  PublicContent,
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
  "w-full rounded-md border border-border bg-background px-3 py-2 text-base text-foreground shadow-xs placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-destructive @md:text-sm";

const chipClass =
  "inline-flex min-h-9 cursor-pointer items-center gap-2 rounded-full border border-border bg-muted px-3 py-1.5 text-sm text-foreground transition-colors hover:bg-accent has-[:checked]:border-foreground has-[:checked]:bg-foreground has-[:checked]:text-background has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring";

/** The steps as shown: fields of an unknown or missing step go to the first one. */
function groupBySteps(steps: readonly InputStep[], fields: readonly PublicField[]) {
  const known = new Set(steps.map((s) => s.id));
  return steps.map((step, i) => ({
    step,
    fields: fields.filter((f) => (f.stepId && known.has(f.stepId) ? f.stepId === step.id : i === 0)),
  }));
}

export type PublicAppFormProps = {
  content: FormContent;
  /** The builder's button colours, already made readable. */
  buttonStyle: React.CSSProperties;
  values: FormValues;
  onValueChange: (name: string, value: string | string[]) => void;
  /** Valid input, Run pressed. Absent: the Run button is disabled and `disabledNote` says why. */
  onRun?: () => void;
  disabledNote?: string;
  /** A run is under way: Run waits. */
  running?: boolean;
  /** The server's word on a field (FIELD_REQUIRED...), focused each time a new one arrives. */
  serverError?: FieldError | null;
  /** Asks for the first control to be focused (a run refused for an empty form); a new value each time. */
  focusFirst?: number;
  /** Under the Run button: sign-in hint, "Forget my answers". */
  footer?: React.ReactNode;
  /** Where photo fields upload their photos; absent in the editor's preview (nothing uploads). */
  photoTarget?: PhotoTarget | null;
};

export function PublicAppForm({
  content,
  buttonStyle,
  values,
  onValueChange,
  onRun,
  disabledNote,
  running = false,
  serverError = null,
  focusFirst,
  footer,
  photoTarget = null,
}: PublicAppFormProps) {
  const id = React.useId();
  const [expanded, setExpanded] = React.useState(false);
  const [stepIndex, setStepIndex] = React.useState(0);
  const [clientError, setClientError] = React.useState<FieldError | null>(null);
  // The server's error stays shown until the field it names is edited.
  const [dismissed, setDismissed] = React.useState<FieldError | null>(null);
  const formRef = React.useRef<HTMLFormElement>(null);
  const stepRefs = React.useRef<(HTMLFieldSetElement | null)[]>([]);
  // Photo fields whose upload is under way: a run waits for them.
  const uploadingPhotos = React.useRef(new Set<string>());
  const photoBusy = React.useCallback((name: string, busy: boolean) => {
    if (busy) uploadingPhotos.current.add(name);
    else uploadingPhotos.current.delete(name);
  }, []);

  const multiStep = content.isMultiStepInput && content.inputSteps.length > 0 && content.fields.length > 0;
  const groups = multiStep
    ? groupBySteps(content.inputSteps, content.fields)
    : [{ step: null, fields: content.fields }];
  const current = Math.min(stepIndex, groups.length - 1);
  const last = current === groups.length - 1;
  const examples = content.examples.filter((e) => e.trim() !== "");
  const inputId = `${id}-input`;
  const noteId = `${id}-note`;
  const controlId = (name: string) =>
    name === RESERVED_FIELD_NAME ? inputId : `${id}-f-${content.fields.findIndex((f) => f.name === name)}`;
  const shownServerError = serverError && serverError !== dismissed ? serverError : null;
  const error = clientError ?? shownServerError;

  /** Opens the step that holds `name` and puts the focus on its control. */
  function focusField(name: string) {
    const step =
      name === RESERVED_FIELD_NAME ? 0 : groups.findIndex((g) => g.fields.some((f) => f.name === name));
    if (step < 0) return;
    if (name === RESERVED_FIELD_NAME) setExpanded(true);
    setStepIndex(step);
    // The step (or the collapsed main input) is shown on the next render.
    requestAnimationFrame(() => {
      const el = document.getElementById(controlId(name));
      const target = el instanceof HTMLFieldSetElement ? el.querySelector<HTMLElement>("input") : el;
      target?.focus();
    });
  }

  // Each new refusal from the server that names a field: show it there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new error moves the focus
  React.useEffect(() => {
    if (serverError) focusField(serverError.name);
  }, [serverError]);

  React.useEffect(() => {
    if (focusFirst === undefined || focusFirst === 0) return;
    setStepIndex(0);
    setExpanded(true);
    requestAnimationFrame(() =>
      stepRefs.current[0]?.querySelector<HTMLElement>("textarea, input, select")?.focus(),
    );
  }, [focusFirst]);

  function change(name: string, value: string | string[]) {
    onValueChange(name, value);
    dismissError(name);
  }

  /** The field is being answered: its error goes (a photo being chosen, before its value is set). */
  function dismissError(name: string) {
    if (clientError?.name === name) setClientError(null);
    if (serverError?.name === name) setDismissed(serverError);
  }

  function fillExample(example: string) {
    change(RESERVED_FIELD_NAME, example);
    setExpanded(true);
    // The textarea exists once expanded; focus it on the next frame so typing can go on.
    requestAnimationFrame(() => document.getElementById(inputId)?.focus());
  }

  /** The first problem among these steps' fields, marked and focused; true when there is none. */
  function stepsAreValid(steps: number[]): boolean {
    for (const i of steps) {
      const found = checkFields(groups[i]?.fields ?? [], values);
      if (found) {
        setClientError(found);
        focusField(found.name);
        return false;
      }
    }
    setClientError(null);
    return true;
  }

  function goTo(index: number) {
    setStepIndex(index);
    requestAnimationFrame(() => stepRefs.current[index]?.querySelector<HTMLElement>("legend")?.focus());
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!onRun || running) return;
    const uploading = content.fields.find((f) => uploadingPhotos.current.has(f.name));
    if (uploading) {
      setClientError({ name: uploading.name, message: publicAppMessages.publicPhotoWait });
      focusField(uploading.name);
      return;
    }
    // Every step, from the first: a field left empty in an earlier step is found and shown.
    if (!stepsAreValid(groups.map((_, i) => i))) return;
    onRun();
  }

  const errorFor = (name: string) => (error?.name === name ? error.message : null);
  const main = typeof values[RESERVED_FIELD_NAME] === "string" ? (values[RESERVED_FIELD_NAME] as string) : "";

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
          {expanded
            ? publicAppMessages.publicHideInput
            : content.inputLabel || publicAppMessages.publicShowInput}
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
          {content.inputLabel || content.inputPlaceholder || publicAppMessages.publicShowInput}
        </label>
        <textarea
          id={inputId}
          name={RESERVED_FIELD_NAME}
          rows={3}
          value={main}
          maxLength={RUN_INPUT_VALUE_MAX}
          onChange={(e) => change(RESERVED_FIELD_NAME, e.target.value)}
          onKeyDown={(e) => {
            // Ctrl/Cmd+Enter runs from the main input, as in chat boxes; Enter alone adds a line.
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              formRef.current?.requestSubmit();
            }
          }}
          placeholder={content.inputPlaceholder || undefined}
          className={cn(controlClass, "min-h-24 resize-y")}
        />
      </div>
      {examples.length > 0 && (
        <div className="grid gap-2">
          <span className="text-xs font-medium text-muted-foreground" id={`${id}-examples`}>
            {publicAppMessages.publicExamples}
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
      disabled={!onRun || running}
      aria-describedby={disabledNote ? noteId : undefined}
      className="inline-flex h-10 items-center justify-center gap-2 rounded-md px-6 text-sm font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60"
      style={buttonStyle}
    >
      {running && <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />}
      {running ? publicAppMessages.publicRunning : publicAppMessages.publicRun}
    </button>
  );

  return (
    <form ref={formRef} className="grid gap-5" noValidate onSubmit={submit}>
      {multiStep && (
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground" aria-live="polite">
          {fillTemplate(publicAppMessages.publicStepOf, { n: current + 1, total: groups.length })}
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
              {step.title || fillTemplate(publicAppMessages.publicStepUntitled, { n: i + 1 })}
            </legend>
          )}
          {i === 0 && mainInput}
          {i === 0 && errorFor(RESERVED_FIELD_NAME) && (
            <FieldMessage id={`${inputId}-error`}>{errorFor(RESERVED_FIELD_NAME)}</FieldMessage>
          )}
          {fields.map((field) =>
            field.type === "photo" ? (
              <PhotoPicker
                key={field.name}
                field={field}
                id={controlId(field.name)}
                label={<LabelText field={field} />}
                value={typeof values[field.name] === "string" ? (values[field.name] as string) : ""}
                onChange={(v) => change(field.name, v)}
                error={errorFor(field.name)}
                target={photoTarget}
                onBusyChange={(busy) => photoBusy(field.name, busy)}
                onPick={() => dismissError(field.name)}
              />
            ) : (
              <FieldControl
                key={field.name}
                field={field}
                id={controlId(field.name)}
                value={values[field.name]}
                onChange={(v) => change(field.name, v)}
                error={errorFor(field.name)}
              />
            ),
          )}
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
              {publicAppMessages.publicBack}
            </button>
          )}
          {last ? (
            runButton
          ) : (
            <button
              type="button"
              onClick={() => stepsAreValid([current]) && goTo(current + 1)}
              className="inline-flex h-10 items-center gap-1 rounded-md px-4 text-sm font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
              style={buttonStyle}
            >
              {publicAppMessages.publicNext}
              <ChevronRightIcon className="size-4" aria-hidden />
            </button>
          )}
        </div>
        {last && disabledNote && (
          <p id={noteId} className="text-sm text-muted-foreground">
            {disabledNote}
          </p>
        )}
        {footer}
      </div>
    </form>
  );
}

/** A field's message, read with its control (aria-describedby) and announced when it appears. */
function FieldMessage({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <p id={id} role="alert" className="text-sm font-medium text-destructive">
      {children}
    </p>
  );
}

/** A field's label text, with the star of a required field. */
function LabelText({ field }: { field: PublicField }) {
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

type ControlProps = {
  field: PublicField;
  id: string;
  value: string | string[] | undefined;
  onChange: (value: string | string[]) => void;
  error: string | null;
};

function FieldControl(props: ControlProps) {
  const { field, id, error } = props;
  // Options with icons read better as choices to tap; plain ones as a native select.
  if (field.type === "multiselect" || (field.type === "select" && field.options.some((o) => o.iconUrl))) {
    return <ChoiceGroup {...props} multiple={field.type === "multiselect"} />;
  }
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        <LabelText field={field} />
      </label>
      <LabelledControl {...props} />
      {error && <FieldMessage id={`${id}-error`}>{error}</FieldMessage>}
    </div>
  );
}

/** The control of a field shown under its own label (every type but the chip groups). */
function LabelledControl({ field, id, value, onChange, error }: ControlProps) {
  const placeholder = field.placeholder || undefined;
  const text = typeof value === "string" ? value : "";
  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: field.name,
    required: field.required,
    placeholder,
    value: text,
    maxLength: RUN_INPUT_VALUE_MAX,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(!!error && `${id}-error`),
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      onChange(e.target.value),
  };
  const box = cn(controlClass, "h-10");

  switch (field.type) {
    case "long_text":
      return <textarea {...common} rows={4} className={cn(controlClass, "min-h-24 resize-y")} />;
    case "email":
      return <input {...common} type="email" autoComplete="email" className={box} />;
    case "place":
      return <input {...common} type="text" autoComplete="street-address" className={box} />;
    case "height":
    case "weight": {
      const unit = field.type === "height" ? publicAppMessages.publicUnitCm : publicAppMessages.publicUnitKg;
      return (
        <div className="flex items-stretch">
          <input
            {...common}
            maxLength={undefined}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            aria-describedby={describedBy(`${id}-unit`, !!error && `${id}-error`)}
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
        <OptionSelect {...common} field={field} firstDisabled={field.required}>
          {field.placeholder || publicAppMessages.publicChoose}
        </OptionSelect>
      );
    case "tool_item_select": {
      // Its choices are the items the builder listed as its options.
      const empty = field.options.length === 0;
      return (
        <OptionSelect {...common} field={field} disabled={empty}>
          {empty ? publicAppMessages.publicNoItems : field.placeholder || publicAppMessages.publicChoose}
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
  disabled,
  firstDisabled,
  children,
  maxLength: _maxLength,
  placeholder: _placeholder,
  ...rest
}: React.ComponentProps<"select"> & {
  field: PublicField;
  firstDisabled?: boolean;
  maxLength?: number;
  placeholder?: string;
}) {
  return (
    <select {...rest} disabled={disabled} className={cn(controlClass, "h-10")}>
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
function ChoiceGroup({ field, id, value, onChange, error, multiple }: ControlProps & { multiple: boolean }) {
  const picked = Array.isArray(value) ? value : typeof value === "string" && value ? [value] : [];
  const describedBy =
    [field.placeholder && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset id={id} className="grid min-w-0 gap-2" aria-describedby={describedBy}>
      <legend className="mb-2 text-sm font-medium text-foreground">
        <LabelText field={field} />
      </legend>
      {field.placeholder && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {field.placeholder}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {field.options.map((o) => (
          <label key={o.label} className={cn(chipClass, error && "border-destructive")}>
            <input
              type={multiple ? "checkbox" : "radio"}
              name={field.name}
              value={o.label}
              checked={picked.includes(o.label)}
              className="sr-only"
              onChange={(e) => {
                if (!multiple) return onChange(o.label);
                onChange(e.target.checked ? [...picked, o.label] : picked.filter((l) => l !== o.label));
              }}
            />
            <OptionIcon src={o.iconUrl} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error && <FieldMessage id={`${id}-error`}>{error}</FieldMessage>}
    </fieldset>
  );
}
