"use client";

import { ChevronDownIcon, CopyIcon, LockIcon, Trash2Icon, ZapIcon } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import {
  fieldTag,
  filterConditionOffered,
  memorizeOffered,
  needsActivation,
  offeredFieldTypes,
} from "@/lib/apps/field-rules";
import { type CustomField, FILTER_CONDITIONS, type FieldType, type InputStep } from "@/lib/apps/schemas";
import { FIELD_INSTRUCTIONS_MAX, FIELD_LABEL_MAX } from "@/lib/constants";
import { type MessageKey, messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/plans/text";
import { cn } from "@/lib/utils";
import { type PanelContext, stepOf, typeBlock } from "./field-edits";
import { FieldTypeIcon, fieldTypeLabel, hasOptions } from "./field-types";
import { OptionsEditor, type OptionsUpdate } from "./options-editor";
import { DragHandle, type DragHandleProps } from "./sortable-list";

const FILTER_LABEL: Record<(typeof FILTER_CONDITIONS)[number], MessageKey> = {
  none: "fieldFilterNone",
  include: "fieldFilterInclude",
  exclude: "fieldFilterExclude",
};

export type FieldCardProps = {
  field: CustomField;
  appId: string;
  toolId?: string;
  gptPrompt: string;
  steps: InputStep[] | null;
  ctx: PanelContext;
  expanded: boolean;
  onToggle: () => void;
  handle: DragHandleProps;
  /** Set when a delete was refused: why. */
  deleteError: string | null;
  onUpdate: (change: Partial<Omit<CustomField, "name">>) => void;
  /** Asks to change the type; the panel applies the plan and role rules. */
  onType: (type: FieldType) => void;
  onOptions: (update: OptionsUpdate) => void;
  onActivate: () => void;
  onCopyTag: () => void;
  onDelete: () => void;
};

/** One custom field: its summary row (always shown) and, when expanded, every detail. */
export function FieldCard(props: FieldCardProps) {
  const { field, gptPrompt, expanded, handle, deleteError } = props;
  const ids = useId();
  const detailsId = `${ids}-details`;
  const title = field.label || field.name;
  const tag = fieldTag(field.name);
  const inactive = needsActivation(field, gptPrompt);

  return (
    <div className="grid gap-2 p-2 @md:p-3" data-field={field.name}>
      <div className="flex min-w-0 items-center gap-1.5">
        <DragHandle handle={handle} label={title} />
        <FieldTypeIcon type={field.type} className="size-4 shrink-0 text-muted-foreground" />
        <button
          type="button"
          data-field-toggle={field.name}
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={props.onToggle}
          className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-1 py-1 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="min-w-0 flex-1">
            <span className="sr-only">{messages.fieldEdit} </span>
            <span className="block truncate text-sm font-medium">{title}</span>
            <span className="block truncate text-xs text-muted-foreground">{fieldTypeLabel(field.type)}</span>
          </span>
          <ChevronDownIcon
            aria-hidden="true"
            className={cn(
              "size-4 shrink-0 text-muted-foreground transition-transform",
              expanded && "rotate-180",
            )}
          />
        </button>
        <Button
          type="button"
          size="icon"
          variant="ghost"
          className="size-8 shrink-0 text-muted-foreground"
          aria-label={fillTemplate(messages.fieldDelete, { label: title })}
          aria-describedby={deleteError ? `${ids}-delete-error` : undefined}
          onClick={props.onDelete}
        >
          <Trash2Icon aria-hidden="true" />
        </Button>
      </div>

      <div className="flex flex-wrap items-center gap-1.5 pl-1 @md:pl-9">
        <span className="inline-flex items-center gap-0.5 rounded-md bg-muted py-0.5 pr-0.5 pl-2 font-mono text-xs">
          {tag}
          <button
            type="button"
            onClick={props.onCopyTag}
            aria-label={fillTemplate(messages.fieldCopyTag, { tag })}
            className="flex size-6 items-center justify-center rounded hover:bg-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <CopyIcon aria-hidden="true" className="size-3.5" />
          </button>
        </span>
        {field.required ? <Badge>{messages.fieldRequiredBadge}</Badge> : null}
        {field.personal ? <Badge>{messages.fieldPersonalBadge}</Badge> : null}
        {inactive ? (
          <>
            <Badge tone="warning">{messages.fieldNeedsActivation}</Badge>
            <Button type="button" size="sm" variant="outline" className="h-7" onClick={props.onActivate}>
              <ZapIcon aria-hidden="true" />
              {fillTemplate(messages.fieldActivate, { tag })}
            </Button>
          </>
        ) : null}
      </div>
      {inactive ? (
        <p className="pl-1 text-xs text-muted-foreground @md:pl-9">
          {fillTemplate(messages.fieldNeedsActivationHint, { tag })}
        </p>
      ) : null}
      {deleteError ? (
        <p id={`${ids}-delete-error`} role="alert" className="pl-1 text-sm text-destructive @md:pl-9">
          {deleteError}
        </p>
      ) : null}

      <div id={detailsId} hidden={!expanded} className="border-t border-border pt-3 @md:ml-9">
        {expanded ? <FieldDetails {...props} /> : null}
      </div>
    </div>
  );
}

function Badge({ children, tone = "neutral" }: { children: React.ReactNode; tone?: "neutral" | "warning" }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium",
        tone === "warning"
          ? "border-[light-dark(#f59e0b,#b45309)] bg-[light-dark(#fffbeb,#451a03)] text-[light-dark(#92400e,#fde68a)]"
          : "border-border text-muted-foreground",
      )}
    >
      {children}
    </span>
  );
}

function FieldDetails({ field, appId, toolId, steps, ctx, onUpdate, onType, onOptions }: FieldCardProps) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const types = offeredFieldTypes(ctx);
  // A type this builder may no longer pick (an admin's place field) still shows as current.
  const typeChoices: FieldType[] = types.includes(field.type) ? types : [field.type, ...types];
  const isEmail = field.type === "email";
  const title = field.label || field.name;

  return (
    <div className="grid gap-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={id("label")}>{messages.fieldLabel}</Label>
          <Input
            id={id("label")}
            data-field-label={field.name}
            value={field.label}
            maxLength={FIELD_LABEL_MAX}
            aria-describedby={id("label-hint")}
            onChange={(e) => onUpdate({ label: e.target.value })}
          />
          <p id={id("label-hint")} className="text-xs text-muted-foreground">
            {messages.fieldLabelHint}
          </p>
        </div>
        <div className="grid content-start gap-1.5">
          <Label htmlFor={id("type")}>{messages.fieldAddType}</Label>
          <TypeSelect id={id("type")} value={field.type} choices={typeChoices} ctx={ctx} onPick={onType} />
        </div>
        {field.type !== "photo" ? (
          <div className="grid content-start gap-1.5">
            <Label htmlFor={id("placeholder")}>{messages.fieldPlaceholder}</Label>
            <Input
              id={id("placeholder")}
              value={field.placeholder}
              maxLength={FIELD_LABEL_MAX}
              onChange={(e) => onUpdate({ placeholder: e.target.value })}
            />
          </div>
        ) : null}
        {steps ? (
          <div className="grid content-start gap-1.5">
            <Label htmlFor={id("step")}>{messages.fieldStep}</Label>
            <Select
              value={stepOf(field, steps) ?? undefined}
              onValueChange={(stepId) => onUpdate({ stepId })}
            >
              <SelectTrigger id={id("step")}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {steps.map((step, i) => (
                  <SelectItem key={step.id} value={step.id}>
                    {step.title || fillTemplate(messages.stepTitlePlaceholder, { n: i + 1 })}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : null}
      </div>

      <div className="grid gap-1.5">
        <Label htmlFor={id("instructions")}>{messages.fieldInstructions}</Label>
        <Textarea
          id={id("instructions")}
          value={field.instructions}
          maxLength={FIELD_INSTRUCTIONS_MAX}
          rows={3}
          aria-describedby={id("instructions-hint")}
          onChange={(e) => onUpdate({ instructions: e.target.value })}
        />
        <p id={id("instructions-hint")} className="text-xs text-muted-foreground">
          {messages.fieldInstructionsHint}
        </p>
      </div>

      <div className="grid gap-3">
        <SwitchRow
          id={id("required")}
          label={messages.fieldRequired}
          hint={messages.fieldRequiredHint}
          checked={field.required}
          onChange={(required) => onUpdate({ required })}
        />
        <SwitchRow
          id={id("personal")}
          label={messages.fieldPersonal}
          hint={isEmail ? messages.fieldEmailAlwaysPersonal : messages.fieldPersonalHint}
          checked={isEmail || field.personal}
          disabled={isEmail}
          onChange={(personal) => onUpdate({ personal })}
        />
        {memorizeOffered(field.type, ctx.isSignupEnabled) ? (
          <SwitchRow
            id={id("memorize")}
            label={messages.fieldMemorize}
            hint={messages.fieldMemorizeHint}
            checked={field.memorize}
            onChange={(memorize) => onUpdate({ memorize })}
          />
        ) : null}
      </div>

      {filterConditionOffered(ctx.aiQueryMethod) ? (
        <div className="grid gap-1.5 @md:max-w-xs">
          <Label htmlFor={id("filter")}>{messages.fieldFilterCondition}</Label>
          <Select
            value={field.filterCondition}
            onValueChange={(v) => onUpdate({ filterCondition: v as CustomField["filterCondition"] })}
          >
            <SelectTrigger id={id("filter")} aria-describedby={id("filter-hint")}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {FILTER_CONDITIONS.map((c) => (
                <SelectItem key={c} value={c}>
                  {messages[FILTER_LABEL[c]]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p id={id("filter-hint")} className="text-xs text-muted-foreground">
            {messages.fieldFilterConditionHint}
          </p>
        </div>
      ) : null}

      {hasOptions(field.type) ? (
        <OptionsEditor
          appId={appId}
          toolId={toolId}
          fieldLabel={title}
          options={field.options}
          onChange={onOptions}
        />
      ) : null}
    </div>
  );
}

function SwitchRow({
  id,
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={id}
        checked={checked}
        disabled={disabled}
        onCheckedChange={onChange}
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
      />
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}

/**
 * The type picker of the add form and of a field's details. Photo on a plan without photo
 * fields stays listed with a lock: picking it asks the panel, which opens the upgrade dialog.
 */
export function TypeSelect({
  id,
  value,
  choices,
  ctx,
  onPick,
}: {
  id: string;
  value: FieldType;
  choices: readonly FieldType[];
  ctx: PanelContext;
  onPick: (type: FieldType) => void;
}) {
  return (
    <Select value={value} onValueChange={(v) => onPick(v as FieldType)}>
      <SelectTrigger id={id}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {choices.map((type) => {
          const block = typeBlock(type, ctx);
          const adminType = type === "place" || type === "tool_item_select";
          return (
            <SelectItem key={type} value={type} disabled={block === "adminOnly" && type !== value}>
              <span className="flex items-center gap-2">
                <FieldTypeIcon type={type} className="size-4 text-muted-foreground" />
                {fieldTypeLabel(type)}
                {block === "upgrade" ? (
                  <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                    <LockIcon aria-hidden="true" className="size-3" />
                    {messages.fieldTypePaidOnly}
                  </span>
                ) : adminType ? (
                  <span className="text-xs text-muted-foreground">{messages.fieldTypeAdminOnlyBadge}</span>
                ) : null}
              </span>
            </SelectItem>
          );
        })}
      </SelectContent>
    </Select>
  );
}
