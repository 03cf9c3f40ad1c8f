"use client";

import { SparklesIcon } from "lucide-react";
import { PanelSection, SwitchRow } from "@/components/editor/panel-parts";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { shownTextColors, TEXT_COLOR_GROUNDS, type TextColorKey } from "@/components/public-app/colors";
import { Button } from "@/components/ui/button";
import { ImageUploadField } from "@/components/uploads/image-upload-field";
import type { AppStyle } from "@/lib/apps/schemas";
import { type MessageKey, messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { COLOR_KEYS, type ColorKey, watermarkState } from "./branding-rules";
import { ColorField } from "./color-field";
import { PresetPicker } from "./preset-picker";

export type BrandingPanelProps = {
  appId: string;
  /** The style as edited (saved or not); the editor saves each patch with its debounce. */
  value: AppStyle;
  onChange: (patch: Partial<AppStyle>) => void;
  isAdmin: boolean;
  /** The owner's plan hides the watermark when hideBuildAI is unset (paid plans). */
  watermarkDefaultHidden: boolean;
};

const colorLabel: Record<ColorKey, MessageKey> = {
  background: "brandingBackground",
  headerTextColor: "brandingHeaderText",
  subheaderTextColor: "brandingSubheaderText",
  buttonTextColor: "brandingButtonText",
  buttonBackgroundColor: "brandingButtonBackground",
};

/**
 * The Branding panel (the app's style record): style presets, background colour and
 * image, logo, text and button colours, and the watermark switch. It only reports changes;
 * the editor saves them as the app's style record.
 */
export function BrandingPanel({
  appId,
  value,
  onChange,
  isAdmin,
  watermarkDefaultHidden,
}: BrandingPanelProps) {
  const shown = shownTextColors(value);
  return (
    <div className="grid w-full min-w-0 gap-8">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold tracking-tight">{messages.brandingTitle}</h2>
        <p className="text-sm text-muted-foreground">{messages.brandingDescription}</p>
      </div>

      <PresetPicker value={value} onChange={onChange} />

      <PanelSection title={messages.brandingColors}>
        <div className="grid gap-4">
          {COLOR_KEYS.map((key) => (
            <ColorField
              key={key}
              label={messages[colorLabel[key]]}
              value={value[key]}
              onChange={(hex) => onChange({ [key]: hex })}
              hint={replacedColorNote(key, value[key], shown)}
            />
          ))}
        </div>
      </PanelSection>

      <PanelSection title={messages.brandingImages}>
        <ImageUploadField
          label={messages.brandingLogo}
          value={value.logoUrl}
          onChange={(url) => onChange({ logoUrl: url })}
          appId={appId}
          kind="logo"
        />
        <ImageUploadField
          label={messages.brandingBackgroundImage}
          value={value.backgroundImage}
          onChange={(url) => onChange({ backgroundImage: url })}
          appId={appId}
          kind="background"
        />
      </PanelSection>

      <WatermarkSetting
        appId={appId}
        hideBuildAI={value.hideBuildAI}
        onChange={onChange}
        isAdmin={isAdmin}
        defaultHidden={watermarkDefaultHidden}
      />
    </div>
  );
}

/**
 * The public page swaps a text colour that would not read on its ground for black or white
 * (shownTextColors, the same rule): the builder learns it here, with the colour shown instead.
 */
function replacedColorNote(key: ColorKey, chosen: string, shownColors: Record<TextColorKey, string>) {
  if (!(key in TEXT_COLOR_GROUNDS)) return undefined;
  const textKey = key as TextColorKey;
  const shown = shownColors[textKey];
  if (shown === chosen) return undefined;
  const text =
    TEXT_COLOR_GROUNDS[textKey] === "buttonBackgroundColor"
      ? messages.brandingColorReplacedOnButton
      : messages.brandingColorReplacedOnBackground;
  return (
    <span className="inline-flex items-start gap-1.5" data-testid={`color-replaced-${textKey}`}>
      <span
        aria-hidden
        className="mt-0.5 size-3 shrink-0 rounded-sm border border-border"
        style={{ backgroundColor: shown }}
      />
      <span>{fillTemplate(text, { color: shown })}</span>
    </span>
  );
}

/**
 * `hideBuildAI`: only admins set it; everyone sees whether the watermark shows and
 * whether that is the plan's default. A plan that shows it by default (lite) offers the upgrade.
 */
function WatermarkSetting({
  appId,
  hideBuildAI,
  onChange,
  isAdmin,
  defaultHidden,
}: {
  appId: string;
  hideBuildAI: boolean | null;
  onChange: (patch: Partial<AppStyle>) => void;
  isAdmin: boolean;
  defaultHidden: boolean;
}) {
  const state = watermarkState(hideBuildAI, defaultHidden);
  const planState = defaultHidden ? messages.brandingWatermarkHidden : messages.brandingWatermarkShown;
  const hint = state.followsPlan
    ? fillTemplate(messages.brandingWatermarkDefault, { state: planState })
    : fillTemplate(messages.brandingWatermarkSet, { state: planState });
  return (
    <SwitchRow
      label={messages.brandingWatermark}
      hint={hint}
      checked={state.hidden}
      onCheckedChange={(hidden) => onChange({ hideBuildAI: hidden })}
      disabled={!isAdmin}
    >
      {isAdmin ? (
        state.followsPlan ? null : (
          <Button
            type="button"
            variant="link"
            size="sm"
            className="h-auto justify-self-start px-0"
            onClick={() => onChange({ hideBuildAI: null })}
          >
            {messages.brandingWatermarkUseDefault}
          </Button>
        )
      ) : (
        <>
          <p className="text-xs text-muted-foreground">{messages.brandingWatermarkAdminOnly}</p>
          {defaultHidden ? null : (
            <div className="mt-1 flex flex-wrap items-center gap-2">
              <p className="text-xs">{messages.upgradeReasonWatermark}</p>
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => openUpgradeDialog({ reason: "watermark", appId })}
              >
                <SparklesIcon aria-hidden="true" />
                {messages.editorUpgrade}
              </Button>
            </div>
          )}
        </>
      )}
    </SwitchRow>
  );
}
