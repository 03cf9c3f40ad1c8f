"use client";

import { ListPlusIcon, PlusIcon, SparklesIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  checkFieldDelete,
  type FieldRuleContext,
  fieldNameFrom,
  fieldTag,
  offeredFieldTypes,
  type RuleError,
} from "@/lib/apps/field-rules";
import type { AppContent, CustomField, FieldType, InputStep } from "@/lib/apps/schemas";
import { FIELD_LABEL_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { recommendedPlanFor, type UpgradeReason } from "@/lib/plans/upgrade-reasons";
import { fillTemplate } from "@/lib/text";
import { FieldCard, TypeSelect } from "./field-card";
import {
  addField,
  appendTag,
  type FieldsPatch,
  type FieldsValue,
  moveItem,
  planNewField,
  removeField,
  typeBlock,
  updateField,
} from "./field-edits";
import { MagicCreateDialog } from "./magic-create-dialog";
import { SortableItem, SortableList } from "./sortable-list";
import { StepsEditor } from "./steps-editor";

// The custom fields panel of the editor: add fields by hand or by magic
// create, edit and reorder them and their options, activate them in the instructions, split the
// input into steps. It only reports changes (onChange with a partial app); the editor saves.

export type FieldsPanelProps = {
  appId: string;
  /** Set when the panel edits a tool of a generated app (uploads and magic create use it). */
  toolId?: string;
  value: { fields: CustomField[]; inputSteps: InputStep[]; isMultiStepInput: boolean; gptPrompt: string };
  onChange: (patch: Partial<AppContent>) => void;
  /** The rules' context; firstLoad is true until the editor has loaded the account. */
  ctx: FieldRuleContext & { firstLoad: boolean };
  /** The app owner's plan: decides whether an upgrade can lift a limit. */
  ownerPlan: string;
};

const ruleText = (e: RuleError) => fillTemplate(messages[e.key], e.vars ?? {});

/** The limit behind a refused add, when an upgrade can lift it. */
function upgradeFor(error: RuleError, ownerPlan: string): UpgradeReason | null {
  const reason: UpgradeReason | null =
    error.key === "maxCustomFields"
      ? "customFields"
      : error.key === "upgradeReasonPhotoFields"
        ? "photoFields"
        : null;
  return reason && recommendedPlanFor(reason, ownerPlan) ? reason : null;
}

export function FieldsPanel({ appId, toolId, value, onChange, ctx, ownerPlan }: FieldsPanelProps) {
  const ids = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const groupRef = useRef<HTMLElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  // The value as of the last change sent: two changes in a row (or an upload that finishes
  // later) build on each other even before the editor re-renders the panel.
  const latest = useRef<FieldsValue>(value);
  latest.current = value;
  const emit = (patch: FieldsPatch) => {
    latest.current = { ...latest.current, ...patch };
    onChange(patch);
  };

  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [addName, setAddName] = useState("");
  const [addType, setAddType] = useState<FieldType>("text");
  const [addError, setAddError] = useState<RuleError | null>(null);
  const [magicOpen, setMagicOpen] = useState(false);
  const [deleteError, setDeleteError] = useState<{ name: string; message: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<CustomField | null>(null);
  const [announce, setAnnounce] = useState("");
  const focusNext = useRef<{ label: string } | { toggle: string } | "group" | "name" | null>(null);
  const dialogFocus = useRef(false);
  // Our dialogs open from buttons, not Radix triggers, so Radix does not know where focus
  // should return when they close: the opener is remembered here.
  const opener = useRef<HTMLElement | null>(null);
  const rememberOpener = () => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  };
  const openMagic = () => {
    rememberOpener();
    setMagicOpen(true);
  };

  // A type the builder may not pick any more (first load ended as a non-admin) falls back.
  useEffect(() => {
    if (!offeredFieldTypes(ctx).includes(addType)) setAddType("text");
  }, [ctx, addType]);

  // A refused delete explains itself until the instructions change.
  const prompt = value.gptPrompt;
  useEffect(() => {
    void prompt;
    setDeleteError(null);
  }, [prompt]);

  // Focus moves where the last action points: to a new field, back to a card, or to the list.
  const focusTarget = (target: NonNullable<typeof focusNext.current>): boolean => {
    let el: HTMLElement | null | undefined = null;
    if (target === "group") el = groupRef.current;
    else if (target === "name") el = nameRef.current;
    else if ("label" in target)
      el = rootRef.current?.querySelector<HTMLElement>(`[data-field-label="${CSS.escape(target.label)}"]`);
    else
      el = rootRef.current?.querySelector<HTMLElement>(`[data-field-toggle="${CSS.escape(target.toggle)}"]`);
    el?.focus();
    return Boolean(el);
  };
  useEffect(() => {
    const target = focusNext.current;
    // After a dialog, its own close handler places the focus (Radix would move it back later).
    if (!target || dialogFocus.current) return;
    if (focusTarget(target)) focusNext.current = null;
  });
  /** A dialog closing after an action: focus goes where the action points, not to its opener. */
  const onDialogCloseFocus = (e: Event) => {
    e.preventDefault();
    dialogFocus.current = false;
    const target = focusNext.current;
    focusNext.current = null;
    if (target && focusTarget(target)) return;
    if (opener.current?.isConnected) opener.current.focus();
    else groupRef.current?.focus();
  };

  const insert = (field: CustomField) => {
    emit(addField(latest.current, field));
    // The new field opens for its details; the others fold so the list stays short.
    setExpanded(new Set([field.name]));
    setAddError(null);
    focusNext.current = { label: field.name };
    setAnnounce(fillTemplate(messages.fieldAddedAnnounce, { label: field.label || field.name }));
  };

  const refuseAdd = (error: RuleError) => {
    setAddError(error);
    if (error.key === "upgradeReasonPhotoFields") openUpgradeDialog({ reason: "photoFields", appId });
  };

  const add = () => {
    const planned = planNewField(addName, addType, latest.current, ctx);
    if (!planned.ok) {
      refuseAdd(planned.error);
      nameRef.current?.focus();
      return;
    }
    setAddName("");
    insert(planned.value);
  };

  /** Photo on a plan without it opens the upgrade dialog instead of being picked. */
  const pickType = (type: FieldType, apply: (type: FieldType) => void) => {
    const block = typeBlock(type, ctx);
    if (block === "upgrade") openUpgradeDialog({ reason: "photoFields", appId });
    else if (block === null) apply(type);
  };

  const activate = (field: CustomField) => {
    const tag = fieldTag(field.name);
    const next = appendTag(latest.current.gptPrompt, field.name);
    if (next === null) {
      toast.error(fillTemplate(messages.fieldActivateTooLong, { tag }));
      return;
    }
    emit({ gptPrompt: next });
    focusNext.current = { toggle: field.name };
    toast.success(fillTemplate(messages.fieldActivated, { tag }));
  };

  const copyTag = async (field: CustomField) => {
    const tag = fieldTag(field.name);
    try {
      await navigator.clipboard.writeText(tag);
      toast.success(fillTemplate(messages.fieldTagCopied, { tag }));
    } catch (err) {
      console.error("copy failed", err);
      toast.error(fillTemplate(messages.fieldTagCopyFailed, { tag }));
    }
  };

  const askDelete = (field: CustomField) => {
    const inUse = checkFieldDelete(field.name, latest.current.gptPrompt);
    if (inUse) setDeleteError({ name: field.name, message: ruleText(inUse) });
    else {
      setDeleteError(null);
      rememberOpener();
      setConfirmDelete(field);
    }
  };

  const doDelete = (field: CustomField) => {
    dialogFocus.current = true;
    emit(removeField(latest.current, field.name));
    setExpanded((s) => {
      const next = new Set(s);
      next.delete(field.name);
      return next;
    });
    focusNext.current = "group";
    setAnnounce(fillTemplate(messages.fieldDeletedAnnounce, { label: field.label || field.name }));
  };

  const { fields } = value;
  const steps = value.isMultiStepInput && value.inputSteps.length > 0 ? value.inputSteps : null;
  const upgrade = addError ? upgradeFor(addError, ownerPlan) : null;
  const namePreview = fieldNameFrom(addName);

  return (
    <div ref={rootRef} className="@container grid min-w-0 gap-5">
      <header className="grid gap-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 id={`${ids}-title`} className="text-lg font-semibold tracking-tight">
            {messages.fieldsTitle}
          </h2>
          <p className="text-sm text-muted-foreground">
            {fillTemplate(messages.fieldsCount, { count: fields.length, max: ctx.maxCustomFields })}
          </p>
        </div>
        <p className="text-sm text-muted-foreground">{messages.fieldsDescription}</p>
      </header>

      <form
        aria-labelledby={`${ids}-add-title`}
        className="grid gap-3 rounded-lg border border-border p-3 @md:p-4"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <h3 id={`${ids}-add-title`} className="text-sm font-semibold">
          {messages.fieldAddTitle}
        </h3>
        <div className="grid gap-3 @sm:grid-cols-[minmax(0,1fr)_12rem]">
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${ids}-name`}>{messages.fieldAddName}</Label>
            <Input
              ref={nameRef}
              id={`${ids}-name`}
              value={addName}
              maxLength={FIELD_LABEL_MAX}
              placeholder={messages.fieldAddNamePlaceholder}
              aria-invalid={addError ? true : undefined}
              aria-describedby={`${ids}-name-hint${addError ? ` ${ids}-add-error` : ""}`}
              onChange={(e) => {
                setAddName(e.target.value);
                if (addError) setAddError(null);
              }}
            />
            <p id={`${ids}-name-hint`} className="min-h-4 truncate font-mono text-xs text-muted-foreground">
              {namePreview ? fillTemplate(messages.fieldAddTagPreview, { tag: fieldTag(namePreview) }) : ""}
            </p>
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${ids}-type`}>{messages.fieldAddType}</Label>
            <TypeSelect
              id={`${ids}-type`}
              value={addType}
              choices={offeredFieldTypes(ctx)}
              ctx={ctx}
              onPick={(type) => pickType(type, setAddType)}
            />
          </div>
        </div>
        {addError ? (
          <div className="flex flex-wrap items-center gap-2">
            <p id={`${ids}-add-error`} role="alert" className="text-sm text-destructive">
              {ruleText(addError)}
            </p>
            {upgrade ? (
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => openUpgradeDialog({ reason: upgrade, appId })}
              >
                {messages.fieldUpgrade}
              </Button>
            ) : null}
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <AddButtons onMagic={openMagic} />
        </div>
      </form>

      <p className="sr-only" aria-live="polite">
        {announce}
      </p>

      <section ref={groupRef} aria-label={messages.fieldsListLabel} tabIndex={-1} className="outline-none">
        {fields.length === 0 ? (
          <div className="grid justify-items-center gap-2 rounded-lg border border-dashed border-border p-6 text-center @md:p-8">
            <ListPlusIcon aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="font-medium">{messages.fieldsEmptyTitle}</p>
            <p className="max-w-md text-sm text-muted-foreground">{messages.fieldsEmptyText}</p>
            <div className="mt-1 flex flex-wrap justify-center gap-2">
              <AddButtons size="sm" onAdd={() => nameRef.current?.focus()} onMagic={openMagic} />
            </div>
          </div>
        ) : (
          <SortableList
            ids={fields.map((f) => f.name)}
            labelOf={(name) => {
              const f = value.fields.find((x) => x.name === name);
              return f?.label || name;
            }}
            onMove={(from, to) => emit({ fields: moveItem(latest.current.fields, from, to) })}
          >
            <ul className="grid gap-2">
              {fields.map((field) => (
                <SortableItem
                  key={field.name}
                  id={field.name}
                  className="rounded-lg border border-border bg-background"
                >
                  {(handle) => (
                    <FieldCard
                      field={field}
                      appId={appId}
                      toolId={toolId}
                      gptPrompt={value.gptPrompt}
                      steps={steps}
                      ctx={ctx}
                      expanded={expanded.has(field.name)}
                      onToggle={() =>
                        setExpanded((s) => {
                          const next = new Set(s);
                          if (!next.delete(field.name)) next.add(field.name);
                          return next;
                        })
                      }
                      handle={handle}
                      deleteError={deleteError?.name === field.name ? deleteError.message : null}
                      onUpdate={(change) => emit(updateField(latest.current, field.name, change, ctx))}
                      onType={(type) =>
                        pickType(type, (t) => emit(updateField(latest.current, field.name, { type: t }, ctx)))
                      }
                      onOptions={(update) => {
                        const current = latest.current.fields.find((f) => f.name === field.name);
                        if (current)
                          emit(
                            updateField(
                              latest.current,
                              field.name,
                              { options: update(current.options) },
                              ctx,
                            ),
                          );
                      }}
                      onActivate={() => activate(field)}
                      onCopyTag={() => void copyTag(field)}
                      onDelete={() => askDelete(field)}
                    />
                  )}
                </SortableItem>
              ))}
            </ul>
          </SortableList>
        )}
      </section>

      <StepsEditor value={value} onPatch={emit} />

      <MagicCreateDialog
        open={magicOpen}
        onOpenChange={setMagicOpen}
        appId={appId}
        toolId={toolId}
        value={value}
        ctx={ctx}
        onCreated={(field) => {
          dialogFocus.current = true;
          setMagicOpen(false);
          insert(field);
        }}
        onCloseAutoFocus={onDialogCloseFocus}
        onLimit={(error) => {
          dialogFocus.current = true;
          focusNext.current = "name";
          refuseAdd(error);
        }}
      />

      <AlertDialog open={confirmDelete !== null} onOpenChange={(open) => !open && setConfirmDelete(null)}>
        <AlertDialogContent onCloseAutoFocus={onDialogCloseFocus}>
          <AlertDialogHeader>
            <AlertDialogTitle>
              {fillTemplate(messages.fieldDeleteTitle, {
                label: confirmDelete ? confirmDelete.label || confirmDelete.name : "",
              })}
            </AlertDialogTitle>
            <AlertDialogDescription>{messages.fieldDeleteDescription}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{messages.cancel}</AlertDialogCancel>
            <AlertDialogAction destructive onClick={() => confirmDelete && doDelete(confirmDelete)}>
              {messages.fieldDeleteConfirm}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/** Add a field (submits the add form, or `onAdd`) and Magic create, side by side. */
function AddButtons({ size, onAdd, onMagic }: { size?: "sm"; onAdd?: () => void; onMagic: () => void }) {
  return (
    <>
      <Button type={onAdd ? "button" : "submit"} size={size} onClick={onAdd}>
        <PlusIcon aria-hidden="true" />
        {messages.fieldAdd}
      </Button>
      <Button type="button" size={size} variant="outline" onClick={onMagic}>
        <SparklesIcon aria-hidden="true" />
        {messages.fieldMagicCreate}
      </Button>
    </>
  );
}
