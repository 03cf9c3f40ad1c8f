"use client";

import { type FormEvent, useId, useRef, useState } from "react";
import { FieldBlock } from "@/components/editor/panel-parts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

/** An http(s) address, as the crawler accepts it; null otherwise. */
export function websiteUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * A website (the web scraper): its address, and how far the plan's crawl goes from it (depth
 * and pages by plan). `submit` resolves with the message of a failure, or null once added.
 */
export function WebsiteSourceForm({
  maxDepth,
  maxPages,
  submit,
}: {
  maxDepth: number;
  maxPages: number;
  submit: (url: string) => Promise<string | null>;
}) {
  const errorId = useId();
  const [value, setValue] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const url = websiteUrl(value);
    if (!url) {
      setInvalid(messages.contextWebUrlInvalid);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    const error = await submit(url);
    setBusy(false);
    if (error) setFailure(error);
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-4"
      aria-describedby={failure ? errorId : undefined}
    >
      <FieldBlock
        label={messages.dataSourceUrlLabel}
        hint={fillTemplate(messages.dataSourceUrlHint, { pages: maxPages, depth: maxDepth })}
        error={invalid}
      >
        {(control) => (
          <Input
            {...control}
            ref={inputRef}
            type="url"
            inputMode="url"
            autoComplete="url"
            value={value}
            placeholder={messages.dataSourceUrlPlaceholder}
            onChange={(e) => {
              setValue(e.target.value);
              setInvalid(null);
            }}
          />
        )}
      </FieldBlock>
      {failure ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {messages.dataSourceUrlSubmit}
        </Button>
      </div>
    </form>
  );
}
