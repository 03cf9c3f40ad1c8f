"use client";

import { useState } from "react";
import { safeHref } from "@/lib/apps/safe-link";
import { AppContent } from "@/lib/apps/schemas";
import { APP_TEXT_MAX, URL_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { PanelHeading, TextAreaField, TextField } from "./panel-parts";

export type CtaPanelProps = {
  value: Pick<AppContent, "ctaMessage" | "ctaButton" | "ctaLink">;
  onChange: (patch: Partial<AppContent>) => void;
};

const linkSchema = AppContent.shape.ctaLink;
// The schema takes any URL scheme; the public page links only web addresses, mail and paths of
// the site (safeHref), so anything else is refused here instead of being silently dropped there.
const isLink = (link: string) =>
  linkSchema.safeParse(link).success && (link === "" || safeHref(link) !== null);

/** Call to action: a message and a button with its link, shown under the results. */
export function CtaPanel({ value, onChange }: CtaPanelProps) {
  // A link the server would refuse stays here, marked, until it is a link; what is saved and
  // previewed is always the last valid one.
  const [invalidLink, setInvalidLink] = useState<string | null>(null);
  return (
    <div className="grid gap-6">
      <PanelHeading title={messages.editorCtaTitle} description={messages.editorCtaDescription} />
      <TextAreaField
        label={messages.editorCtaMessage}
        value={value.ctaMessage}
        maxLength={APP_TEXT_MAX}
        rows={2}
        placeholder={messages.editorCtaMessagePlaceholder}
        onChange={(ctaMessage) => onChange({ ctaMessage })}
      />
      <TextField
        label={messages.editorCtaButton}
        value={value.ctaButton}
        maxLength={APP_TEXT_MAX}
        placeholder={messages.editorCtaButtonPlaceholder}
        onChange={(ctaButton) => onChange({ ctaButton })}
      />
      <TextField
        label={messages.editorCtaLink}
        type="url"
        value={invalidLink ?? value.ctaLink}
        maxLength={URL_MAX}
        placeholder="https://"
        hint={messages.editorCtaLinkHint}
        error={invalidLink !== null ? messages.editorCtaLinkInvalid : null}
        onChange={(text) => {
          const link = text.trim();
          if (isLink(link)) {
            setInvalidLink(null);
            onChange({ ctaLink: link });
          } else setInvalidLink(text);
        }}
      />
    </div>
  );
}
