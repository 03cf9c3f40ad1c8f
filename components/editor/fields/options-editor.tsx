"use client";

import { CheckIcon, ImageIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ImageUploadField } from "@/components/uploads/image-upload-field";
import type { RuleError } from "@/lib/apps/field-rules";
import type { FieldOption } from "@/lib/apps/schemas";
import { OPTION_BLUR_CLOSE_MS, OPTION_LABEL_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { addOption, moveItem, renameOption } from "./field-edits";
import { DragHandle, SortableItem, SortableList } from "./sortable-list";

// The options of a select / multiselect field: add (empty names never added), rename inline,
// give an icon, delete, and reorder by drag or keyboard. Changes are sent as updaters of the
// latest options, so an icon upload that finishes later never undoes edits made meanwhile.

export type OptionsUpdate = (options: FieldOption[]) => FieldOption[];

const ruleText = (e: RuleError) => fillTemplate(messages[e.key], e.vars ?? {});

export function OptionsEditor({
  appId,
  toolId,
  fieldLabel,
  options,
  onChange,
}: {
  appId: string;
  toolId?: string;
  fieldLabel: string;
  options: FieldOption[];
  onChange: (update: OptionsUpdate) => void;
}) {
  const ids = useId();
  const newId = `${ids}-new`;
  const hintId = `${ids}-hint`;
  const errorId = `${ids}-error`;
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [iconOf, setIconOf] = useState<string | null>(null);
  // A renamed option is a new row (its label is its key): its edit button gets the focus back.
  const [refocus, setRefocus] = useState<string | null>(null);
  const newInputRef = useRef<HTMLInputElement>(null);
  // The icon dialog opens from a plain button (no Radix trigger): focus returns to it here.
  const iconOpener = useRef<HTMLElement | null>(null);

  const add = () => {
    const next = addOption(options, draft);
    if (!next.ok) {
      setError(ruleText(next.error));
      return;
    }
    setError(null);
    setDraft("");
    onChange((current) => {
      const again = addOption(current, draft);
      return again.ok ? again.value : current;
    });
    newInputRef.current?.focus();
  };

  const labels = options.map((o) => o.label);
  const iconOption = options.find((o) => o.label === iconOf) ?? null;

  return (
    <fieldset className="m-0 grid min-w-0 gap-3 border-0 p-0">
      <legend className="mb-2 p-0 text-sm font-medium">{messages.fieldOptions}</legend>
      {options.length === 0 ? (
        <p className="text-sm text-muted-foreground">{messages.fieldOptionsEmpty}</p>
      ) : (
        <SortableList
          ids={labels}
          labelOf={(id) => id}
          onMove={(from, to) => onChange((current) => moveItem(current, from, to))}
        >
          <ul
            aria-label={fillTemplate(messages.fieldOptionsListLabel, { label: fieldLabel })}
            className="grid gap-1.5"
          >
            {options.map((option, index) => (
              <SortableItem
                key={option.label}
                id={option.label}
                className="rounded-md border border-border bg-background"
              >
                {(handle) => (
                  <OptionRow
                    option={option}
                    editing={editing === option.label}
                    focusEdit={refocus === option.label}
                    onFocused={() => setRefocus(null)}
                    handle={<DragHandle handle={handle} label={option.label} />}
                    onEdit={() => {
                      setError(null);
                      setEditing(option.label);
                    }}
                    onSubmit={(label) => {
                      if (label.trim() === option.label) return true;
                      const renamed = renameOption(options, index, label);
                      if (!renamed.ok) {
                        setError(ruleText(renamed.error));
                        return false;
                      }
                      setError(null);
                      setRefocus(renamed.value[index].label);
                      onChange((current) => {
                        const at = current.findIndex((o) => o.label === option.label);
                        const again = at < 0 ? null : renameOption(current, at, label);
                        return again?.ok ? again.value : current;
                      });
                      return true;
                    }}
                    onClose={() => setEditing(null)}
                    onIcon={() => {
                      iconOpener.current =
                        document.activeElement instanceof HTMLElement ? document.activeElement : null;
                      setIconOf(option.label);
                    }}
                    onDelete={() => {
                      setError(null);
                      onChange((current) => current.filter((o) => o.label !== option.label));
                      newInputRef.current?.focus();
                    }}
                  />
                )}
              </SortableItem>
            ))}
          </ul>
        </SortableList>
      )}

      <div className="grid gap-1.5">
        <Label htmlFor={newId}>{messages.fieldOptionNew}</Label>
        <div className="flex gap-2">
          <Input
            ref={newInputRef}
            id={newId}
            value={draft}
            maxLength={OPTION_LABEL_MAX}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              if (error) setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={add} className="shrink-0">
            <PlusIcon aria-hidden="true" />
            <span>{messages.fieldOptionAdd}</span>
          </Button>
        </div>
        <p id={hintId} className="flex justify-between gap-2 text-xs text-muted-foreground">
          <span>{fillTemplate(messages.charactersMax, { n: OPTION_LABEL_MAX })}</span>
          <span aria-hidden="true">
            {draft.length}/{OPTION_LABEL_MAX}
          </span>
        </p>
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>

      <Dialog open={iconOption !== null} onOpenChange={(open) => !open && setIconOf(null)}>
        <DialogContent
          size="sm"
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            if (iconOpener.current?.isConnected) iconOpener.current.focus();
            else newInputRef.current?.focus();
          }}
        >
          <DialogHeader>
            <DialogTitle>{fillTemplate(messages.fieldOptionIconTitle, { label: iconOf ?? "" })}</DialogTitle>
            <DialogDescription>{messages.fieldOptionIconDescription}</DialogDescription>
          </DialogHeader>
          {iconOption ? (
            <ImageUploadField
              label={fillTemplate(messages.fieldOptionIcon, { label: iconOption.label })}
              value={iconOption.iconUrl}
              appId={appId}
              toolId={toolId}
              kind="option"
              onChange={(url) => {
                const label = iconOption.label;
                onChange((current) => current.map((o) => (o.label === label ? { ...o, iconUrl: url } : o)));
              }}
            />
          ) : null}
          <DialogFooter>
            <Button type="button" onClick={() => setIconOf(null)}>
              {messages.fieldOptionIconDone}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </fieldset>
  );
}

/**
 * One option: its icon, its label (a button that opens the inline editor) and delete. The
 * editor commits on Enter or the save button (a refused label keeps it open), cancels on
 * Escape, and closes 500 ms after focus leaves it (OPTION_BLUR_CLOSE_MS), so a click on its own
 * save button still lands; closing by blur keeps a valid label and drops a refused one.
 */
function OptionRow({
  option,
  editing,
  focusEdit,
  onFocused,
  handle,
  onEdit,
  onSubmit,
  onClose,
  onIcon,
  onDelete,
}: {
  option: FieldOption;
  editing: boolean;
  focusEdit: boolean;
  onFocused: () => void;
  handle: React.ReactNode;
  onEdit: () => void;
  /** Renames the option; false when the label was refused. */
  onSubmit: (label: string) => boolean;
  onClose: () => void;
  onIcon: () => void;
  onDelete: () => void;
}) {
  const [draft, setDraft] = useState(option.label);
  const inputRef = useRef<HTMLInputElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!editing) return;
    setDraft(option.label);
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [editing, option.label]);

  useEffect(() => {
    if (!focusEdit || editing) return;
    editRef.current?.focus();
    onFocused();
  }, [focusEdit, editing, onFocused]);

  useEffect(() => () => clearTimeout(closeTimer.current ?? undefined), []);

  const cancelClose = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  };
  const refocusEdit = () => requestAnimationFrame(() => editRef.current?.focus());
  const submit = () => {
    cancelClose();
    if (!onSubmit(draft)) return;
    onClose();
    refocusEdit();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus and blur are only watched, to close the editor when focus leaves the row
    <div
      className="flex min-w-0 items-center gap-1 p-1"
      onFocus={cancelClose}
      onBlur={(e) => {
        if (!editing || e.currentTarget.contains(e.relatedTarget as Node | null)) return;
        cancelClose();
        closeTimer.current = setTimeout(() => {
          closeTimer.current = null;
          onSubmit(draft);
          onClose();
        }, OPTION_BLUR_CLOSE_MS);
      }}
    >
      {handle}
      <button
        type="button"
        onClick={onIcon}
        aria-label={fillTemplate(messages.fieldOptionIcon, { label: option.label })}
        className="flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-muted text-muted-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {option.iconUrl ? (
          // biome-ignore lint/performance/noImgElement: an uploaded icon of any type, shown as stored
          <img src={option.iconUrl} alt="" className="size-full object-contain" />
        ) : (
          <ImageIcon aria-hidden="true" className="size-4" />
        )}
      </button>
      {editing ? (
        <>
          <Input
            ref={inputRef}
            value={draft}
            maxLength={OPTION_LABEL_MAX}
            aria-label={messages.fieldOptionLabel}
            className="h-8 min-w-0 flex-1"
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                submit();
              } else if (e.key === "Escape") {
                e.preventDefault();
                e.stopPropagation();
                cancelClose();
                onClose();
                refocusEdit();
              }
            }}
          />
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-8"
            aria-label={messages.fieldOptionSave}
            onClick={submit}
          >
            <CheckIcon aria-hidden="true" />
          </Button>
        </>
      ) : (
        <button
          ref={editRef}
          type="button"
          onClick={onEdit}
          aria-label={fillTemplate(messages.fieldOptionEdit, { label: option.label })}
          className="h-8 min-w-0 flex-1 truncate rounded-md px-2 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {option.label}
        </button>
      )}
      <Button
        type="button"
        size="icon"
        variant="ghost"
        className="size-8 text-muted-foreground"
        aria-label={fillTemplate(messages.fieldOptionDelete, { label: option.label })}
        onClick={onDelete}
      >
        <Trash2Icon aria-hidden="true" />
      </Button>
    </div>
  );
}
