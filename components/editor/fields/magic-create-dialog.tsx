"use client";

import { Loader2Icon, SparklesIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { getBearerToken } from "@/components/auth/token-store";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
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
import { checkFieldCount, checkNewFieldName, fieldNameFrom, type RuleError } from "@/lib/apps/field-rules";
import type { CustomField } from "@/lib/apps/schemas";
import type { MagicCreateBody } from "@/lib/builder/schemas";
import { MAGIC_INPUT_MAX, MAGIC_PROMPT_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { type FieldsValue, type PanelContext, planMagicField, readMagicAnswer } from "./field-edits";

// "Magic create": the builder types a field name or a few words, POST /api/builder/magicCreate
// designs the field, and it is added after the same checks as a typed one. The three failure
// messages of magic create; a server that says more (the 503 naming AI_BASE_URL) is quoted.

async function callMagicCreate(
  body: MagicCreateBody,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = getBearerToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch("/api/builder/magicCreate", {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    return { status: 0, body: null };
  }
  return { status: res.status, body: await res.json().catch(() => null) };
}

export function MagicCreateDialog({
  open,
  onOpenChange,
  appId,
  toolId,
  value,
  ctx,
  onCreated,
  onLimit,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  appId: string;
  toolId?: string;
  value: FieldsValue;
  ctx: PanelContext;
  /** The checked field, ready to add. */
  onCreated: (field: CustomField) => void;
  /** The plan's field count is reached: the panel shows the message and the upgrade way. */
  onLimit: (error: RuleError) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const ids = useId();
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    if (open) return;
    abortRef.current?.abort();
    setBusy(false);
    setError(null);
  }, [open]);
  useEffect(() => () => abortRef.current?.abort(), []);

  const show = (e: RuleError) => setError(fillTemplate(messages[e.key], e.vars ?? {}));

  const submit = async () => {
    if (busy) return;
    const full = checkFieldCount(value.fields.length, ctx);
    if (full) {
      onOpenChange(false);
      onLimit(full);
      return;
    }
    const typed = fieldNameFrom(input);
    if (!typed) {
      setError(messages.fieldNameEmpty);
      return;
    }
    // The typed name itself may already be refused: say so without asking the model.
    const taken = checkNewFieldName(typed, value.fields);
    if (taken) {
      show(taken.key === "fieldExists" ? { key: "magicFieldExists" } : taken);
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setBusy(true);
    setError(null);
    try {
      const answer = await callMagicCreate(
        {
          input: input.trim(),
          magicType: "field",
          // Their beginning is context enough; the server reads no more.
          prompt: value.gptPrompt.slice(0, MAGIC_PROMPT_MAX),
          appId,
          ...(toolId ? { toolId } : {}),
          existingNames: value.fields.map((f) => f.name),
        },
        controller.signal,
      );
      const read = readMagicAnswer(answer.status, answer.body);
      if (!read.ok) {
        setError(read.message ?? messages[read.key]);
        // The builder's AI requests are spent: the plan that allows more is offered on top.
        if (read.upgradeReason) openUpgradeDialog({ reason: read.upgradeReason, appId });
        return;
      }
      const planned = planMagicField(read.field, value, ctx);
      if (!planned.ok) {
        show(planned.error);
        return;
      }
      setInput("");
      onCreated(planned.value);
    } catch (err) {
      if (controller.signal.aborted) return;
      console.error("magicCreate failed", err);
      setError(messages.magicCreateFieldFailed);
    } finally {
      if (abortRef.current === controller) {
        abortRef.current = null;
        setBusy(false);
      }
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="sm" aria-busy={busy} onCloseAutoFocus={onCloseAutoFocus}>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{messages.fieldMagicTitle}</DialogTitle>
            <DialogDescription>{messages.fieldMagicDescription}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor={`${ids}-input`}>{messages.fieldMagicInput}</Label>
            <Input
              id={`${ids}-input`}
              value={input}
              maxLength={MAGIC_INPUT_MAX}
              placeholder={messages.fieldMagicInputPlaceholder}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ids}-error` : undefined}
              // readOnly, not disabled: a disabled input would drop the focus out of the dialog
              readOnly={busy}
              onChange={(e) => {
                setInput(e.target.value);
                if (error) setError(null);
              }}
            />
          </div>
          {error ? (
            <p id={`${ids}-error`} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <p className="sr-only" aria-live="polite">
            {busy ? messages.fieldMagicWorking : ""}
          </p>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {messages.cancel}
            </Button>
            <Button type="submit" aria-disabled={busy || undefined}>
              {busy ? (
                <Loader2Icon aria-hidden="true" className="animate-spin motion-reduce:animate-none" />
              ) : (
                <SparklesIcon aria-hidden="true" />
              )}
              {busy ? messages.fieldMagicWorking : messages.fieldMagicSubmit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
