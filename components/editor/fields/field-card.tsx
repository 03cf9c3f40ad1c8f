"use client";

import { ChevronDownIcon, CopyIcon, LockIcon, Trash2Icon, ZapIcon } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
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
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { FieldBlock, SwitchRow, TextAreaField, TextField } from "../panel-parts";
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
  const types = offeredFieldTypes(ctx);
  // A type this builder may no longer pick (an admin's place field) still shows as current.
  const typeChoices: FieldType[] = types.includes(field.type) ? types : [field.type, ...types];
  const isEmail = field.type === "email";
  const title = field.label || field.name;

  return (
    <div className="grid gap-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <FieldBlock label={messages.fieldLabel} hint={messages.fieldLabelHint} className="gap-1.5">
          {(control) => (
            <Input
              {...control}
              data-field-label={field.name}
              value={field.label}
              maxLength={FIELD_LABEL_MAX}
              onChange={(e) => onUpdate({ label: e.target.value })}
            />
          )}
        </FieldBlock>
        <FieldBlock label={messages.fieldAddType} className="content-start gap-1.5">
          {(control) => (
            <TypeSelect id={control.id} value={field.type} choices={typeChoices} ctx={ctx} onPick={onType} />
          )}
        </FieldBlock>
        {field.type !== "photo" ? (
          <TextField
            label={messages.fieldPlaceholder}
            value={field.placeholder}
            maxLength={FIELD_LABEL_MAX}
            onChange={(placeholder) => onUpdate({ placeholder })}
            className="content-start gap-1.5"
          />
        ) : null}
        {steps ? (
          <FieldBlock label={messages.fieldStep} className="content-start gap-1.5">
            {(control) => (
              <Select
                value={stepOf(field, steps) ?? undefined}
                onValueChange={(stepId) => onUpdate({ stepId })}
              >
                <SelectTrigger {...control}>
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
            )}
          </FieldBlock>
        ) : null}
      </div>

      <TextAreaField
        label={messages.fieldInstructions}
        hint={messages.fieldInstructionsHint}
        value={field.instructions}
        maxLength={FIELD_INSTRUCTIONS_MAX}
        onChange={(instructions) => onUpdate({ instructions })}
        className="gap-1.5"
      />

      <div className="grid gap-3">
        <SwitchRow
          switchFirst
          label={messages.fieldRequired}
          hint={messages.fieldRequiredHint}
          checked={field.required}
          onCheckedChange={(required) => onUpdate({ required })}
        />
        <SwitchRow
          switchFirst
          label={messages.fieldPersonal}
          hint={isEmail ? messages.fieldEmailAlwaysPersonal : messages.fieldPersonalHint}
          checked={isEmail || field.personal}
          disabled={isEmail}
          onCheckedChange={(personal) => onUpdate({ personal })}
        />
        {memorizeOffered(field.type, ctx.isSignupEnabled) ? (
          <SwitchRow
            switchFirst
            label={messages.fieldMemorize}
            hint={messages.fieldMemorizeHint}
            checked={field.memorize}
            onCheckedChange={(memorize) => onUpdate({ memorize })}
          />
        ) : null}
      </div>

      {filterConditionOffered(ctx.aiQueryMethod) ? (
        <FieldBlock
          label={messages.fieldFilterCondition}
          hint={messages.fieldFilterConditionHint}
          className="gap-1.5 @md:max-w-xs"
        >
          {(control) => (
            <Select
              value={field.filterCondition}
              onValueChange={(v) => onUpdate({ filterCondition: v as CustomField["filterCondition"] })}
            >
              <SelectTrigger {...control}>
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
          )}
        </FieldBlock>
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
