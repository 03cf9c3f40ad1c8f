import type { MessageKey } from "@/lib/messages";
import type { AppSettings } from "./schemas";

// Who may change which app setting. Shared by the settings save (server: a non-admin's change
// to one of these is refused) and the settings panel (client: shown read-only or hidden), so
// both read the same list. No server-only imports here.

/** "Admins set model, temperature, query method, the claim feature, credits per run,
 * user-can-edit-results, template settings and the watermark switch", and the app
 * template and builder collaborator toggles. The watermark switch is a style key
 * (hideBuildAI), checked by the style save. */
export const ADMIN_ONLY_SETTINGS = [
  "aiModel",
  "modelTemperature",
  "aiQueryMethod",
  "isClaimable",
  "creditsPerRun",
  "userCanEditResults",
  "isToolTemplate",
  "templateCategory",
  "templateCategories",
  "isProTool",
  "templateImageUrl",
  "templateDescription",
  "isAppTemplate",
  "requireBuilderCollaboratorAccount",
] as const satisfies readonly (keyof AppSettings)[];

export type AdminOnlySetting = (typeof ADMIN_ONLY_SETTINGS)[number];

/** Whether only an admin may change this setting. */
export function isAdminOnlySetting(key: string): key is AdminOnlySetting {
  return (ADMIN_ONLY_SETTINGS as readonly string[]).includes(key);
}

/** Whether this user may change this setting (everything else a paying builder may). */
export function canChangeSetting(key: keyof AppSettings, isAdmin: boolean): boolean {
  return isAdmin || !isAdminOnlySetting(key);
}

/** The label the settings panel shows for each admin-only setting, for the server's refusal. */
export const ADMIN_ONLY_SETTING_LABELS: Record<AdminOnlySetting | "hideBuildAI", MessageKey> = {
  aiModel: "appSettingsModel",
  modelTemperature: "appSettingsTemperature",
  aiQueryMethod: "appSettingsQueryMethod",
  isClaimable: "appSettingsClaimable",
  creditsPerRun: "appSettingsCredits",
  userCanEditResults: "appSettingsUserCanEdit",
  isToolTemplate: "appSettingsToolTemplate",
  templateCategory: "appSettingsTemplateCategory",
  templateCategories: "appSettingsTemplateCategory",
  isProTool: "appSettingsProTool",
  templateImageUrl: "appSettingsTemplateImage",
  templateDescription: "appSettingsTemplateDescription",
  isAppTemplate: "appSettingsAppTemplate",
  requireBuilderCollaboratorAccount: "appSettingsBuilderCollaborator",
  hideBuildAI: "brandingWatermark",
};
