"use client";

import { FieldBlock, PanelSection, SwitchRow } from "@/components/editor/panel-parts";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { type AppSettings, MAIN_PAGES } from "@/lib/apps/schemas";
import { CUSTOM_DOMAIN_MAX, EMAIL_MAX, URL_MAX } from "@/lib/constants";
import { type MessageKey, messages } from "@/lib/messages";
import { InviteButton } from "./invite-button";
import { PaidMemberships } from "./paid-memberships";
import {
  type Parsed,
  paidMembershipsBlocked,
  parseLink,
  parseSupportEmail,
  signupBlocked,
  signupPatch,
} from "./settings-rules";
import { useDraft } from "./use-draft";

// The app settings with their rules: sign-up (published + custom domain),
// paid memberships (need sign-up), legal links and support email (marked red when empty), the
// main page; and the admin-only toggles (app template, claim, builder collaborator, invite).

type Props = {
  appId: string;
  status: "active" | "draft";
  value: AppSettings;
  onChange: (patch: Partial<AppSettings>) => void;
};

const mainPageLabel: Record<(typeof MAIN_PAGES)[number], MessageKey> = {
  home: "appSettingsMainHome",
  tools: "appSettingsMainTools",
  chat: "appSettingsMainChat",
};

const same = (text: string) => text;

export function SignupSettings({ appId, status, value, onChange }: Props) {
  const signupBlock = signupBlocked(status, value);
  const paidBlock = paidMembershipsBlocked(value);
  return (
    <PanelSection title={messages.appSettingsAccessHeading}>
      <FieldBlock label={messages.appSettingsCustomDomain}>
        {(control) => (
          <Input
            {...control}
            value={value.customDomain}
            placeholder={messages.appSettingsCustomDomainPlaceholder}
            maxLength={CUSTOM_DOMAIN_MAX}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => onChange({ customDomain: e.target.value })}
          />
        )}
      </FieldBlock>
      <SwitchRow
        label={messages.appSettingsSignup}
        hint={signupBlock ? messages[signupBlock] : undefined}
        checked={value.isSignupEnabled}
        onCheckedChange={(on) => onChange(signupPatch(on, value))}
        disabled={signupBlock !== null}
      />
      <SwitchRow
        label={messages.appSettingsPaidMemberships}
        hint={paidBlock ? messages[paidBlock] : undefined}
        checked={value.isPaidMembershipsEnabled}
        onCheckedChange={(on) => onChange({ isPaidMembershipsEnabled: on })}
        disabled={paidBlock !== null}
      />
      {value.isPaidMembershipsEnabled ? <PaidMemberships appId={appId} /> : null}
      <RequiredText
        label={messages.appSettingsTerms}
        missing="appSettingsTermsMissing"
        value={value.termsOfServiceLink}
        parse={parseLink}
        onValid={(termsOfServiceLink) => onChange({ termsOfServiceLink })}
        type="url"
      />
      <RequiredText
        label={messages.appSettingsPrivacy}
        missing="appSettingsPrivacyMissing"
        value={value.privacyPolicyLink}
        parse={parseLink}
        onValid={(privacyPolicyLink) => onChange({ privacyPolicyLink })}
        type="url"
      />
      <RequiredText
        label={messages.appSettingsSupportEmail}
        missing="appSettingsSupportEmailMissing"
        value={value.supportEmail}
        parse={parseSupportEmail}
        onValid={(supportEmail) => onChange({ supportEmail })}
        type="email"
      />
      <FieldBlock label={messages.appSettingsMainPage}>
        {(control) => (
          <Select
            value={value.mainPage}
            onValueChange={(p) => onChange({ mainPage: p as AppSettings["mainPage"] })}
          >
            <SelectTrigger {...control}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {MAIN_PAGES.map((p) => (
                <SelectItem key={p} value={p}>
                  {messages[mainPageLabel[p]]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      </FieldBlock>
    </PanelSection>
  );
}

/**
 * A link or address the app should have: "Empty terms link, privacy link or support email
 * fields are marked red". An invalid entry says why and is not saved.
 */
function RequiredText({
  label,
  missing,
  value,
  parse,
  onValid,
  type,
}: {
  label: string;
  missing: MessageKey;
  value: string;
  parse: (text: string) => Parsed<string>;
  onValid: (value: string) => void;
  type: "url" | "email";
}) {
  const draft = useDraft(value, same, parse, onValid);
  const error = draft.message ?? (draft.text.trim() === "" ? messages[missing] : null);
  return (
    <FieldBlock label={label} error={error}>
      {(control) => (
        <Input
          {...control}
          type={type}
          inputMode={type}
          autoComplete={type === "email" ? "email" : "url"}
          placeholder={type === "url" ? messages.appSettingsUrlPlaceholder : undefined}
          maxLength={type === "email" ? EMAIL_MAX : URL_MAX}
          value={draft.text}
          onChange={(e) => draft.change(e.target.value)}
          onBlur={draft.blur}
        />
      )}
    </FieldBlock>
  );
}

/** Only admins see the app template, claim and builder collaborator toggles. */
export function AdminAppSettings({
  appId,
  status,
  value,
  onChange,
  flush,
}: Props & { flush: () => Promise<void> }) {
  return (
    <PanelSection title={messages.appSettingsAdminHeading}>
      <SwitchRow
        label={messages.appSettingsAppTemplate}
        checked={value.isAppTemplate}
        onCheckedChange={(on) => onChange({ isAppTemplate: on })}
      />
      <SwitchRow
        label={messages.appSettingsClaimable}
        hint={messages.appSettingsClaimableHint}
        checked={value.isClaimable}
        onCheckedChange={(on) => onChange({ isClaimable: on })}
      >
        {value.isClaimable ? (
          <div className="mt-1">
            <InviteButton appId={appId} status={status} flush={flush} />
          </div>
        ) : null}
      </SwitchRow>
      <SwitchRow
        label={messages.appSettingsBuilderCollaborator}
        checked={value.requireBuilderCollaboratorAccount}
        onCheckedChange={(on) => onChange({ requireBuilderCollaboratorAccount: on })}
      />
    </PanelSection>
  );
}
