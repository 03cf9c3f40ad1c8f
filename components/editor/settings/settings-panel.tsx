"use client";

import { Loader2Icon, SparklesIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { Button } from "@/components/ui/button";
import type { AppSettings, AppType } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { AdminAppSettings, SignupSettings } from "./app-settings";
import { SecretsSettings } from "./secrets-settings";
import { hasToolSettings, settingsAccess, withoutPanel } from "./settings-rules";
import { RunLimitSettings, TemplateSettings, ToolRunSettings } from "./tool-settings";

export type SettingsPanelProps = {
  appId: string;
  appType: AppType;
  status: "active" | "draft";
  /** The settings as edited (saved or not); the editor saves each patch with its debounce. */
  value: AppSettings;
  onChange: (patch: Partial<AppSettings>) => void;
  isAdmin: boolean;
  /** The app owner's plan: lite (and, for a generated app, below moon) gets the upgrade prompt. */
  ownerPlan: string;
  /** Resolves when the editor's pending saves are done (rejects when one failed). */
  onDone: () => Promise<void>;
};

/**
 * The Tool / App settings panel: a tool's settings and an app's settings, with admin-only
 * settings read-only (tool settings) or hidden (app settings) for others. It only reports
 * changes; the editor saves them as the app's settings record. Done waits for the pending save
 * ("The Done button in settings waits for any pending save before closing") and then
 * opens the editor's main panel.
 */
export function SettingsPanel({
  appId,
  appType,
  status,
  value,
  onChange,
  isAdmin,
  ownerPlan,
  onDone,
}: SettingsPanelProps) {
  const access = settingsAccess(ownerPlan, appType, isAdmin);
  const title = appType === "tool" ? messages.appSettingsToolTitle : messages.appSettingsAppTitle;

  if (!access.edit) {
    return (
      <div className="grid gap-4">
        <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
        <div className="grid justify-items-start gap-3 rounded-lg border border-border bg-muted/40 p-4">
          <p className="text-sm">{messages[access.message]}</p>
          <Button type="button" onClick={() => openUpgradeDialog({ reason: access.reason, appId })}>
            <SparklesIcon aria-hidden="true" />
            {messages.editorUpgrade}
          </Button>
        </div>
      </div>
    );
  }

  const tools = hasToolSettings(appType);
  return (
    <div className="grid w-full min-w-0 gap-8">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
        <p className="text-sm text-muted-foreground">{messages.appSettingsDescription}</p>
      </div>
      {tools ? (
        <>
          <ToolRunSettings value={value} onChange={onChange} isAdmin={isAdmin} />
          <RunLimitSettings value={value} onChange={onChange} />
        </>
      ) : null}
      <SignupSettings appId={appId} status={status} value={value} onChange={onChange} />
      {tools ? <TemplateSettings value={value} onChange={onChange} isAdmin={isAdmin} /> : null}
      {appType === "space" ? <SecretsSettings appId={appId} /> : null}
      {isAdmin ? (
        <AdminAppSettings appId={appId} status={status} value={value} onChange={onChange} flush={onDone} />
      ) : null}
      <DoneButton onDone={onDone} />
    </div>
  );
}

function DoneButton({ onDone }: { onDone: () => Promise<void> }) {
  const router = useRouter();
  const [waiting, setWaiting] = useState(false);
  const done = async () => {
    setWaiting(true);
    try {
      await onDone();
    } catch {
      // The save failed: the editor says so and keeps the change; the panel stays open.
      setWaiting(false);
      return;
    }
    setWaiting(false);
    router.push(withoutPanel(window.location.href));
  };
  // Sticky, so Done is at hand in a long panel; the strip under it covers the scroll
  // container's bottom padding, where content would otherwise show through.
  return (
    <div className="sticky bottom-0 -mx-1 flex justify-end border-t border-border bg-background px-1 py-3 after:absolute after:inset-x-0 after:top-full after:h-4 after:bg-background">
      <Button type="button" onClick={() => void done()} disabled={waiting} aria-busy={waiting}>
        {waiting ? <Loader2Icon aria-hidden="true" className="animate-spin" /> : null}
        {waiting ? messages.appSettingsDoneSaving : messages.appSettingsDone}
      </Button>
    </div>
  );
}
