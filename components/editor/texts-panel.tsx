"use client";

import { CheckIcon, PlusIcon, XIcon } from "lucide-react";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { fieldTag, isTagUsed } from "@/lib/apps/field-rules";
import type { AppContent } from "@/lib/apps/schemas";
import { APP_TEXT_MAX, EXAMPLES_MAX, INSTRUCTIONS_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { PanelHeading, SwitchRow, TextAreaField, TextField } from "./panel-parts";

/** The content keys this panel edits (an app's or a tool's content has them all). */
export type TextsValue = Pick<
  AppContent,
  | "header"
  | "description"
  | "inputLabel"
  | "inputPlaceholder"
  | "isInputHidden"
  | "isInputCollapsed"
  | "examples"
  | "welcomeMessage"
  | "gptPrompt"
  | "fields"
>;

export type TextsPanelProps = {
  value: TextsValue;
  onChange: (patch: Partial<AppContent>) => void;
  /** "tool": a tool's texts and instructions (a single-tool app, or one tool of a generated
   * app); "hub": the main page of a generated app (its tools carry the rest). */
  variant: "tool" | "hub";
  title: string;
  /** The line under the title (default: texts and instructions). */
  description?: string;
};

/**
 * Texts: header, description, the main input's label and placeholder, its hidden / collapsed
 * switches, up to EXAMPLES_MAX examples, the welcome message and the instructions (gptPrompt),
 * with the [name] tags of the custom fields to insert.
 */
export function TextsPanel({ value, onChange, variant, title, description }: TextsPanelProps) {
  return (
    <div className="grid gap-6">
      <PanelHeading title={title} description={description ?? messages.editorTextsDescription} />
      <TextField
        label={messages.editorHeader}
        value={value.header}
        maxLength={APP_TEXT_MAX}
        placeholder={messages.editorHeaderPlaceholder}
        onChange={(header) => onChange({ header })}
      />
      <TextAreaField
        label={messages.editorDescription}
        value={value.description}
        maxLength={APP_TEXT_MAX}
        rows={2}
        placeholder={messages.editorDescriptionPlaceholder}
        onChange={(description) => onChange({ description })}
      />
      {variant === "tool" ? (
        <>
          <InputSection value={value} onChange={onChange} />
          <ExamplesSection examples={value.examples} onChange={(examples) => onChange({ examples })} />
        </>
      ) : null}
      <TextAreaField
        label={messages.editorWelcomeMessage}
        hint={messages.editorWelcomeMessageHint}
        value={value.welcomeMessage}
        maxLength={APP_TEXT_MAX}
        rows={2}
        onChange={(welcomeMessage) => onChange({ welcomeMessage })}
      />
      {variant === "tool" ? <InstructionsField value={value} onChange={onChange} /> : null}
    </div>
  );
}

function InputSection({ value, onChange }: Pick<TextsPanelProps, "value" | "onChange">) {
  return (
    <fieldset className="grid gap-4 rounded-lg border border-border p-4">
      <legend className="px-1 text-sm font-semibold">{messages.editorInputHeading}</legend>
      <TextField
        label={messages.editorInputLabel}
        value={value.inputLabel}
        maxLength={APP_TEXT_MAX}
        placeholder={messages.editorInputLabelPlaceholder}
        onChange={(inputLabel) => onChange({ inputLabel })}
      />
      <TextField
        label={messages.editorInputPlaceholder}
        value={value.inputPlaceholder}
        maxLength={APP_TEXT_MAX}
        placeholder={messages.editorInputPlaceholderPlaceholder}
        onChange={(inputPlaceholder) => onChange({ inputPlaceholder })}
      />
      <SwitchRow
        label={messages.editorInputHidden}
        hint={messages.editorInputHiddenHint}
        checked={value.isInputHidden}
        onCheckedChange={(isInputHidden) => onChange({ isInputHidden })}
      />
      <SwitchRow
        label={messages.editorInputCollapsed}
        hint={messages.editorInputCollapsedHint}
        checked={value.isInputCollapsed}
        onCheckedChange={(isInputCollapsed) => onChange({ isInputCollapsed })}
      />
    </fieldset>
  );
}

function ExamplesSection({
  examples,
  onChange,
}: {
  examples: string[];
  onChange: (examples: string[]) => void;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const focusExample = (index: number) => {
    // After React has rendered the new list.
    requestAnimationFrame(() => listRef.current?.querySelectorAll("input")[index]?.focus());
  };
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">{messages.editorExamples}</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        {fillTemplate(messages.editorExamplesHint, { n: EXAMPLES_MAX })}
      </p>
      {examples.length > 0 ? (
        <ol ref={listRef} className="grid gap-2">
          {examples.map((example, i) => {
            const n = i + 1;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: examples are plain strings edited in place
              <li key={i} className="flex items-center gap-2">
                <Input
                  aria-label={fillTemplate(messages.editorExample, { n })}
                  value={example}
                  maxLength={APP_TEXT_MAX}
                  onChange={(e) => onChange(examples.map((x, j) => (j === i ? e.target.value : x)))}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={fillTemplate(messages.editorExampleRemove, { n })}
                  onClick={() => {
                    onChange(examples.filter((_, j) => j !== i));
                    focusExample(Math.max(0, i - 1));
                  }}
                >
                  <XIcon aria-hidden />
                </Button>
              </li>
            );
          })}
        </ol>
      ) : null}
      {examples.length < EXAMPLES_MAX ? (
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          onClick={() => {
            onChange([...examples, ""]);
            focusExample(examples.length);
          }}
        >
          <PlusIcon aria-hidden />
          {messages.editorExampleAdd}
        </Button>
      ) : null}
    </fieldset>
  );
}

/** The instructions, with the custom fields' [name] tags to insert where the cursor is. */
function InstructionsField({ value, onChange }: Pick<TextsPanelProps, "value" | "onChange">) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const tags = value.fields.map((f) => fieldTag(f.name));

  const insert = (tag: string) => {
    const area = ref.current;
    const text = value.gptPrompt;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const next = `${text.slice(0, start)}${tag}${text.slice(end)}`;
    if (next.length > INSTRUCTIONS_MAX) return;
    onChange({ gptPrompt: next });
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + tag.length, start + tag.length);
    });
  };

  return (
    <TextAreaField
      label={messages.editorInstructions}
      hint={messages.editorInstructionsHint}
      value={value.gptPrompt}
      maxLength={INSTRUCTIONS_MAX}
      rows={8}
      placeholder={messages.editorInstructionsPlaceholder}
      textareaRef={ref}
      onChange={(gptPrompt) => onChange({ gptPrompt })}
    >
      <div className="grid gap-2">
        <p className="text-xs font-medium">{messages.editorFieldTags}</p>
        {tags.length === 0 ? (
          <p className="text-xs text-muted-foreground">{messages.editorFieldTagsEmpty}</p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {tags.map((tag) => {
              const used = isTagUsed(tag.slice(1, -1), value.gptPrompt);
              return (
                <li key={tag}>
                  <Button
                    variant={used ? "secondary" : "outline"}
                    size="sm"
                    className="font-mono"
                    aria-label={fillTemplate(messages.editorFieldTagInsert, { tag })}
                    title={used ? fillTemplate(messages.editorFieldTagUsed, { tag }) : undefined}
                    onClick={() => insert(tag)}
                  >
                    {used ? <CheckIcon aria-hidden /> : <PlusIcon aria-hidden />}
                    {tag}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </TextAreaField>
  );
}
