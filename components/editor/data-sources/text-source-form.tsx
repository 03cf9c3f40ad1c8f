"use client";

import { type FormEvent, useRef, useState } from "react";
import { TextAreaField } from "@/components/editor/panel-parts";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

/**
 * A text data source: 'Please enter some text' when it is empty. `submit` sends it
 * and resolves with the message of a failure, or null once it is added.
 */
export function TextSourceForm({
  submitLabel,
  submit,
}: {
  submitLabel: string;
  submit: (text: string) => Promise<string | null>;
}) {
  const [text, setText] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldRef = useRef<HTMLTextAreaElement>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (!text.trim()) {
      setInvalid(messages.contextEnterText);
      fieldRef.current?.focus();
      return;
    }
    setBusy(true);
    const error = await submit(text);
    setBusy(false);
    if (error) setFailure(error);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextAreaField
        label={messages.dataSourceTextLabel}
        value={text}
        onChange={(value) => {
          setText(value);
          if (value.trim()) setInvalid(null);
        }}
        error={invalid}
        rows={8}
        placeholder={messages.dataSourceTextPlaceholder}
        textareaRef={fieldRef}
      />
      {failure ? (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
