"use client";

import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { FieldBlock, PanelSection, SwitchRow } from "@/components/editor/panel-parts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Slider } from "@/components/ui/slider";
import { Textarea } from "@/components/ui/textarea";
import { weeklyBelowDaily } from "@/lib/apps/run-limits";
import { type AppSettings, QUERY_METHODS } from "@/lib/apps/schemas";
import { canChangeSetting } from "@/lib/apps/setting-roles";
import {
  APP_TEXT_MAX,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
  TEMPERATURE_STEP,
  TEMPLATE_CATEGORY_MAX,
  URL_MAX,
  USER_RUN_LIMIT_MAX,
} from "@/lib/constants";
import { type MessageKey, messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { type ModelNotice, ModelSelect } from "./model-select";
import {
  addTemplateCategory,
  type Parsed,
  parseCredits,
  parseImageUrl,
  parseTemperature,
  parseUserLimit,
  roundTemperature,
} from "./settings-rules";
import { useDraft } from "./use-draft";

// The tool settings: model, temperature, query method, run limits per user,
// credits per run, results editing, and the template library entry. Model, temperature, query
// method, credits, results editing and template settings are for admins: others
// see them read-only.

type Props = {
  value: AppSettings;
  onChange: (patch: Partial<AppSettings>) => void;
  isAdmin: boolean;
};

const queryMethodLabel: Record<(typeof QUERY_METHODS)[number], MessageKey> = {
  default: "appSettingsQueryDefault",
  smart_items_filtering: "appSettingsQuerySmart",
};

const formatLimit = (n: number | null) => (n === null ? "" : String(n));
const formatNumber = (n: number) => String(n);
const formatUrl = (url: string | null) => url ?? "";

export function ToolRunSettings({ value, onChange, isAdmin }: Props) {
  const [modelNotice, setModelNotice] = useState<ModelNotice>(null);
  const temperature = useDraft(value.modelTemperature, formatNumber, parseTemperature, (t) =>
    onChange({ modelTemperature: t }),
  );
  const credits = useDraft(value.creditsPerRun, formatNumber, parseCredits, (n) =>
    onChange({ creditsPerRun: n }),
  );
  // Every setting here is admin-only; the shared list decides.
  const locked = (key: keyof AppSettings) => !canChangeSetting(key, isAdmin);

  return (
    <PanelSection
      title={messages.appSettingsRunsHeading}
      note={isAdmin ? undefined : messages.appSettingsAdminOnly}
    >
      <FieldBlock
        label={messages.appSettingsModel}
        hint={
          modelNotice === "failed"
            ? messages.appSettingsModelListFailed
            : modelNotice === "notConfigured"
              ? messages.aiNotConfigured
              : undefined
        }
      >
        {(control) => (
          <ModelSelect
            value={value.aiModel}
            onChange={(aiModel) => onChange({ aiModel })}
            disabled={locked("aiModel")}
            control={control}
            onNotice={setModelNotice}
          />
        )}
      </FieldBlock>

      <FieldBlock
        label={messages.appSettingsTemperature}
        hint={messages.appSettingsTemperatureHint}
        error={temperature.message}
      >
        {(control) => (
          <div className="flex items-center gap-3">
            <Slider
              thumbLabel={messages.appSettingsTemperature}
              min={TEMPERATURE_MIN}
              max={TEMPERATURE_MAX}
              step={TEMPERATURE_STEP}
              value={[value.modelTemperature]}
              onValueChange={([t]) => onChange({ modelTemperature: roundTemperature(t) })}
              disabled={locked("modelTemperature")}
              className="flex-1"
            />
            <Input
              {...control}
              inputMode="decimal"
              value={temperature.text}
              onChange={(e) => temperature.change(e.target.value)}
              onBlur={temperature.blur}
              disabled={locked("modelTemperature")}
              className="w-20"
            />
          </div>
        )}
      </FieldBlock>

      <FieldBlock label={messages.appSettingsQueryMethod}>
        {(control) => (
          <Select
            value={value.aiQueryMethod}
            onValueChange={(m) => onChange({ aiQueryMethod: m as AppSettings["aiQueryMethod"] })}
            disabled={locked("aiQueryMethod")}
          >
            <SelectTrigger {...control}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {QUERY_METHODS.map((m) => (
                <SelectItem key={m} value={m}>
                  {messages[queryMethodLabel[m]]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      </FieldBlock>

      <FieldBlock
        label={messages.appSettingsCredits}
        hint={messages.appSettingsCreditsHint}
        error={credits.message}
      >
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            value={credits.text}
            onChange={(e) => credits.change(e.target.value)}
            onBlur={credits.blur}
            disabled={locked("creditsPerRun")}
            className="w-24"
          />
        )}
      </FieldBlock>

      <SwitchRow
        label={messages.appSettingsUserCanEdit}
        checked={value.userCanEditResults}
        onCheckedChange={(on) => onChange({ userCanEditResults: on })}
        disabled={locked("userCanEditResults")}
      />
    </PanelSection>
  );
}

/** Run limits per user (1 to 100 a day or a week): any builder who may edit settings sets them. */
export function RunLimitSettings({ value, onChange }: Omit<Props, "isAdmin">) {
  return (
    <PanelSection title={messages.appSettingsLimitsHeading}>
      <div className="grid gap-4">
        <UserLimitField
          label={messages.appSettingsDailyLimit}
          value={value.dailyUserLimit}
          onValid={(n) => onChange({ dailyUserLimit: n })}
          fitsOther={(n) => !weeklyBelowDaily({ dailyUserLimit: n, weeklyUserLimit: value.weeklyUserLimit })}
        />
        <UserLimitField
          label={messages.appSettingsWeeklyLimit}
          value={value.weeklyUserLimit}
          onValid={(n) => onChange({ weeklyUserLimit: n })}
          fitsOther={(n) => !weeklyBelowDaily({ dailyUserLimit: value.dailyUserLimit, weeklyUserLimit: n })}
        />
      </div>
    </PanelSection>
  );
}

/**
 * One run limit: a whole number, or empty for no limit. One that does not fit the other limit
 * (a weekly under the daily) shows why and is not saved, as the server would refuse it.
 */
function UserLimitField({
  label,
  value,
  onValid,
  fitsOther,
}: {
  label: string;
  value: number | null;
  onValid: (limit: number | null) => void;
  fitsOther: (limit: number | null) => boolean;
}) {
  const parse = (text: string): Parsed<number | null> => {
    const parsed = parseUserLimit(text);
    return parsed.ok && !fitsOther(parsed.value)
      ? { ok: false, error: "appSettingsWeeklyBelowDaily" }
      : parsed;
  };
  const draft = useDraft(value, formatLimit, parse, onValid);
  return (
    <FieldBlock label={label} hint={messages.appSettingsLimitHint} error={draft.message}>
      {(control) => (
        <Input
          {...control}
          inputMode="numeric"
          placeholder={messages.appSettingsNoLimit}
          maxLength={String(USER_RUN_LIMIT_MAX).length + 2}
          value={draft.text}
          onChange={(e) => draft.change(e.target.value)}
          onBlur={draft.blur}
        />
      )}
    </FieldBlock>
  );
}

export function TemplateSettings({ value, onChange, isAdmin }: Props) {
  const locked = (key: keyof AppSettings) => !canChangeSetting(key, isAdmin);
  const [newCategory, setNewCategory] = useState("");
  const [categoryError, setCategoryError] = useState<string | null>(null);
  const image = useDraft(value.templateImageUrl, formatUrl, parseImageUrl, (url) =>
    onChange({ templateImageUrl: url }),
  );

  const add = () => {
    const added = addTemplateCategory(newCategory, value.templateCategories);
    if (!added.ok) {
      setCategoryError(fillTemplate(messages[added.error.key], added.error.vars ?? {}));
      return;
    }
    setCategoryError(null);
    setNewCategory("");
    onChange(added.patch);
  };

  return (
    <PanelSection
      title={messages.appSettingsTemplateHeading}
      note={isAdmin ? undefined : messages.appSettingsAdminOnly}
    >
      <SwitchRow
        label={messages.appSettingsToolTemplate}
        checked={value.isToolTemplate}
        onCheckedChange={(on) => onChange({ isToolTemplate: on })}
        disabled={locked("isToolTemplate")}
      />
      <SwitchRow
        label={messages.appSettingsProTool}
        checked={value.isProTool}
        onCheckedChange={(on) => onChange({ isProTool: on })}
        disabled={locked("isProTool")}
      />

      <FieldBlock label={messages.appSettingsTemplateCategory}>
        {(control) => (
          <Select
            value={value.templateCategory ?? NO_CATEGORY}
            onValueChange={(c) => onChange({ templateCategory: c === NO_CATEGORY ? null : c })}
            disabled={locked("templateCategory")}
          >
            <SelectTrigger {...control}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_CATEGORY}>{messages.appSettingsNoCategory}</SelectItem>
              {categoryChoices(value).map((c) => (
                <SelectItem key={c} value={c}>
                  {c}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      </FieldBlock>

      {locked("templateCategories") ? null : (
        <FieldBlock label={messages.appSettingsNewCategory} error={categoryError}>
          {(control) => (
            <div className="flex gap-2">
              <Input
                {...control}
                value={newCategory}
                maxLength={TEMPLATE_CATEGORY_MAX}
                onChange={(e) => {
                  setNewCategory(e.target.value);
                  setCategoryError(null);
                }}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    add();
                  }
                }}
              />
              <Button type="button" variant="outline" onClick={add}>
                <PlusIcon aria-hidden="true" />
                {messages.appSettingsAddCategory}
              </Button>
            </div>
          )}
        </FieldBlock>
      )}

      <FieldBlock label={messages.appSettingsTemplateDescription}>
        {(control) => (
          <Textarea
            {...control}
            value={value.templateDescription}
            maxLength={APP_TEXT_MAX}
            onChange={(e) => onChange({ templateDescription: e.target.value })}
            disabled={locked("templateDescription")}
            rows={3}
          />
        )}
      </FieldBlock>

      <FieldBlock label={messages.appSettingsTemplateImage} error={image.message}>
        {(control) => (
          <Input
            {...control}
            type="url"
            inputMode="url"
            placeholder={messages.appSettingsUrlPlaceholder}
            maxLength={URL_MAX}
            value={image.text}
            onChange={(e) => image.change(e.target.value)}
            onBlur={image.blur}
            disabled={locked("templateImageUrl")}
          />
        )}
      </FieldBlock>
    </PanelSection>
  );
}

/** Radix Select has no empty value; this one stands for "no category" (null). */
const NO_CATEGORY = "__none__";

/** The categories to pick from, with the app's own even if it was removed from the list. */
function categoryChoices(value: AppSettings): string[] {
  const { templateCategories, templateCategory } = value;
  return templateCategory && !templateCategories.includes(templateCategory)
    ? [templateCategory, ...templateCategories]
    : templateCategories;
}
