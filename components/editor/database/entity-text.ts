import { type MessageKey, messages } from "@/lib/messages";
import type { AccessLevel, EntityField } from "@/lib/space/entities";
import { fillTemplate } from "@/lib/text";

// The words of the Database panel: access levels, the presets the builder may ask the
// chat for, and a field's type as a line of text. Free of React, so they can be tested.

export const ACCESS_LABEL: Record<AccessLevel, string> = {
  anonymous: messages.accessAnonymous,
  all: messages.accessAll,
  admin: messages.accessAdmin,
  creator: messages.accessCreator,
  none: messages.accessNone,
};

export type AccessPreset = { label: MessageKey; read: AccessLevel; write: AccessLevel };

/** The access presets (read/write) the builder may pick, in the product's order. */
export const ACCESS_PRESETS: readonly AccessPreset[] = [
  { label: "accessPresetAnonymousSubmit", read: "admin", write: "anonymous" },
  { label: "accessPresetAnonymousRead", read: "anonymous", write: "admin" },
  { label: "accessPresetUsersReadAdminWrite", read: "all", write: "admin" },
  { label: "accessPresetUsersReadCreatorWrite", read: "all", write: "creator" },
  { label: "accessPresetCreatorOnly", read: "creator", write: "creator" },
  { label: "accessPresetAdminOnly", read: "admin", write: "admin" },
];

/** "string, date and time", "one of low, high", "list of string", or the type itself. */
export function fieldTypeText(f: Pick<EntityField, "type" | "format" | "enum" | "items">): string {
  if (f.enum) return fillTemplate(messages.databaseOneOf, { values: f.enum.join(", ") });
  if (f.items) return fillTemplate(messages.databaseListOf, { items: f.items });
  if (f.format === "date-time") return fillTemplate(messages.databaseDateTime, { type: f.type });
  return f.format ? `${f.type} (${f.format})` : f.type;
}

/** A record's value in a table cell: text as it is, yes / no, lists and objects as JSON, "—" for none. */
export function formatCell(value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  if (typeof value === "boolean") return value ? messages.databaseRequiredYes : messages.databaseRequiredNo;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
