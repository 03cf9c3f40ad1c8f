"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import type { RecordKind, SaverView } from "./use-record-saver";

// After a 409 the builder sees both versions of what they changed, readable, and chooses: keep
// theirs on top of the other person's revision, or load the other version. The dialog cannot be
// dismissed without a choice: closing it would leave the edits neither saved nor dropped.

type ConflictSaver = Pick<SaverView, "kind" | "state" | "resolveConflict">;

const description: Record<RecordKind, string> = {
  app: messages.saveConflict,
  tool: messages.toolSaveConflict,
  style: messages.editorConflictStyle,
  settings: messages.editorConflictSettings,
};

/** Catalogue keys naming a record's keys; anything not listed is named from its own key. */
const keyLabels: Record<string, string> = {
  header: "editorHeader",
  description: "editorDescription",
  fields: "fieldsTitle",
  isMultiStepInput: "stepsSwitch",
  inputSteps: "stepsTitle",
  examples: "editorExamples",
  inputLabel: "editorInputLabel",
  inputPlaceholder: "editorInputPlaceholder",
  isInputHidden: "editorInputHidden",
  isInputCollapsed: "editorInputCollapsed",
  welcomeMessage: "editorWelcomeMessage",
  ctaMessage: "editorKeyCtaMessage",
  ctaButton: "editorKeyCtaButton",
  ctaLink: "editorKeyCtaLink",
  resultsLayout: "editorResultsTitle",
  gptPrompt: "editorInstructions",
  path: "toolPath",
  imageUrl: "toolThumbnail",
  status: "editorKeyStatus",
  styleName: "brandingStyle",
  backgroundImage: "brandingBackgroundImage",
  logoUrl: "brandingLogo",
  headerTextColor: "brandingHeaderText",
  subheaderTextColor: "brandingSubheaderText",
  buttonTextColor: "brandingButtonText",
  buttonBackgroundColor: "brandingButtonBackground",
  hideBuildAI: "brandingWatermark",
  aiModel: "appSettingsModel",
  modelTemperature: "appSettingsTemperature",
  aiQueryMethod: "appSettingsQueryMethod",
  dailyUserLimit: "appSettingsDailyLimit",
  weeklyUserLimit: "appSettingsWeeklyLimit",
  creditsPerRun: "appSettingsCredits",
  isClaimable: "appSettingsClaimable",
  isToolTemplate: "appSettingsToolTemplate",
  templateCategory: "appSettingsTemplateCategory",
  templateCategories: "editorKeyTemplateCategories",
  isProTool: "appSettingsProTool",
  templateImageUrl: "appSettingsTemplateImage",
  templateDescription: "appSettingsTemplateDescription",
  userCanEditResults: "appSettingsUserCanEdit",
  isSignupEnabled: "appSettingsSignup",
  customDomain: "appSettingsCustomDomain",
  termsOfServiceLink: "appSettingsTerms",
  privacyPolicyLink: "appSettingsPrivacy",
  supportEmail: "appSettingsSupportEmail",
  isPaidMembershipsEnabled: "appSettingsPaidMemberships",
  mainPage: "appSettingsMainPage",
  isAppTemplate: "appSettingsAppTemplate",
  requireBuilderCollaboratorAccount: "appSettingsBuilderCollaborator",
};

/** The label of a record key; "background" depends on the record (a colour in the style). */
export function keyLabel(kind: RecordKind, key: string): string {
  const catalogue = messages as Record<string, string>;
  const messageKey = key === "background" && kind === "style" ? "brandingBackground" : keyLabels[key];
  const known = messageKey ? catalogue[messageKey] : undefined;
  if (known) return known;
  // A key without a catalogue label (rare: features, chatSettings...): its own words.
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as a person reads it: text, Yes / No, a list of names, or formatted JSON. */
function Readable({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined || value === "") {
    return <span className="italic text-muted-foreground">{messages.editorValueEmpty}</span>;
  }
  if (typeof value === "boolean") return value ? messages.editorValueYes : messages.editorValueNo;
  if (typeof value === "string" || typeof value === "number") {
    return <span className="whitespace-pre-wrap break-words">{String(value)}</span>;
  }
  if (Array.isArray(value)) {
    if (value.length === 0)
      return <span className="italic text-muted-foreground">{messages.editorValueEmpty}</span>;
    const names = value.map((item) => {
      if (typeof item === "string") return item;
      if (item && typeof item === "object") {
        const o = item as Record<string, unknown>;
        const name = o.label || o.title || o.name || o.text;
        if (typeof name === "string" && name) return o.name && o.name !== name ? `${name} [${o.name}]` : name;
      }
      return JSON.stringify(item);
    });
    return (
      <ul className="grid list-disc gap-0.5 pl-4">
        {names.map((name, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only snapshot, never reordered
          <li key={i} className="break-words">
            {name || <span className="italic text-muted-foreground">{messages.editorValueEmpty}</span>}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <pre className="whitespace-pre-wrap break-words font-mono text-xs">{JSON.stringify(value, null, 2)}</pre>
  );
}

export function SaveConflictDialog({ saver }: { saver: ConflictSaver }) {
  const conflict = saver.state.conflict;
  const theirs = conflict?.theirs as Record<string, unknown> | undefined;
  const mine = conflict?.mine as Record<string, unknown> | undefined;
  return (
    <Dialog open={conflict !== null}>
      <DialogContent
        size="lg"
        showCloseButton={false}
        onEscapeKeyDown={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{messages.editorConflictTitle}</DialogTitle>
          <DialogDescription>{description[saver.kind]}</DialogDescription>
        </DialogHeader>
        {conflict && theirs && mine ? (
          <div className="grid gap-4">
            {conflict.keys.map((key) => (
              <section
                key={key}
                className="grid gap-2"
                aria-label={fillTemplate(messages.editorConflictField, { name: keyLabel(saver.kind, key) })}
              >
                <h3 className="text-sm font-semibold">{keyLabel(saver.kind, key)}</h3>
                <div className="grid gap-2 sm:grid-cols-2">
                  <Version
                    heading={messages.editorConflictTheirs}
                    testId="conflict-theirs"
                    value={theirs[key]}
                  />
                  <Version
                    heading={messages.editorConflictYours}
                    testId="conflict-yours"
                    value={mine[key]}
                    className="border-primary/60"
                  />
                </div>
              </section>
            ))}
            <p className="text-xs text-muted-foreground">{messages.editorConflictKeepHint}</p>
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => saver.resolveConflict("theirs")}>
            {messages.editorConflictLoadTheirs}
          </Button>
          <Button onClick={() => saver.resolveConflict("mine")}>{messages.editorConflictKeepMine}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** One side of a conflicting key: its heading and the value, readable. */
function Version({
  heading,
  testId,
  value,
  className = "border-border",
}: {
  heading: string;
  testId: string;
  value: unknown;
  className?: string;
}) {
  return (
    <div className={cn("grid content-start gap-1 rounded-md border p-3 text-sm", className)}>
      <p className="text-xs font-medium text-muted-foreground">{heading}</p>
      <div className="max-h-48 overflow-y-auto" data-testid={testId}>
        <Readable value={value} />
      </div>
    </div>
  );
}
