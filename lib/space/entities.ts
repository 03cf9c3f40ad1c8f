import "server-only";
import type { z } from "zod";
import type { App } from "@/db/schema";
import { assertSpaceApp, currentTree } from "./commit";
import { type AppFileItem, entityNameOf } from "./files";
import {
  ACCESS_LEVELS,
  type EntityAnswer,
  type EntityField as EntityFieldSchema,
  type EntityListAnswer,
} from "./schemas";
import { filesOf } from "./versions";

// The Database panel of a space app: its entities as the current version defines
// them, each a JSON schema in entities/{Name}.json written by the chat's add_entity and
// edit_entity actions. The User entity is the app's end users, not a table of the builder's, so
// the panel leaves it out. Access levels are the schema's x-accessControl.permissions, "default
// creator for both".

export { ACCESS_LEVELS };
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export type EntityField = z.infer<typeof EntityFieldSchema>;
export type EntityView = z.infer<typeof EntityAnswer>;
export type EntityList = z.infer<typeof EntityListAnswer>;

/** A field every row has, kept by the table itself. */
const builtIn = (name: string, format: string | null = null): EntityField => ({
  name,
  type: "string",
  format,
  enum: null,
  items: null,
  itemEnum: null,
  maxLength: null,
  required: true,
  builtIn: true,
});

const BUILT_IN: EntityField[] = [builtIn("id"), builtIn("creatorId"), builtIn("createdAt", "date-time")];

// Nested objects are listed to this depth; deeper ones show as "object".
const MAX_DEPTH = 3;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function typeOf(schema: Json): string {
  const t = schema.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t) && t.every((x) => typeof x === "string")) return t.join(" or ");
  if (Array.isArray(schema.enum)) return "enum";
  return "any";
}

function fieldsOf(schema: Json, prefix: string, depth: number): EntityField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [],
  );
  return Object.entries(properties).flatMap(([name, raw]) => {
    const prop = isObject(raw) ? raw : {};
    const items = isObject(prop.items) ? prop.items : null;
    const field: EntityField = {
      name: `${prefix}${name}`,
      type: typeOf(prop),
      format: typeof prop.format === "string" ? prop.format : null,
      enum: Array.isArray(prop.enum) ? prop.enum.map((v) => String(v)) : null,
      items: items ? typeOf(items) : null,
      itemEnum: items && Array.isArray(items.enum) ? items.enum.map((v) => String(v)) : null,
      maxLength:
        typeof prop.maxLength === "number" && Number.isInteger(prop.maxLength) && prop.maxLength >= 0
          ? prop.maxLength
          : null,
      required: required.has(name),
      builtIn: false,
    };
    const nested = isObject(prop.properties) && depth < MAX_DEPTH;
    return [field, ...(nested ? fieldsOf(prop, `${field.name}.`, depth + 1) : [])];
  });
}

/** The fields an entity file's schema declares (none when it is not a JSON object). */
export function declaredFields(content: string): EntityField[] {
  try {
    const parsed: unknown = JSON.parse(content);
    return isObject(parsed) ? fieldsOf(parsed, "", 1) : [];
  } catch {
    return [];
  }
}

const levelOf = (v: unknown): AccessLevel =>
  (ACCESS_LEVELS as readonly unknown[]).includes(v) ? (v as AccessLevel) : "creator";

/**
 * One entity file read as the panel shows it; null for the User entity. Entity files are checked
 * to be JSON objects when an action writes them (lib/space/files.ts), so one that is not (none
 * should be) is shown without fields rather than hidden.
 */
export function entityView(file: Pick<AppFileItem, "path" | "content">): EntityView | null {
  const name = entityNameOf(file.path);
  if (name === null || name === "User") return null;
  let schema: Json = {};
  try {
    const parsed: unknown = JSON.parse(file.content);
    if (isObject(parsed)) schema = parsed;
  } catch {
    // Shown with its built-in fields only.
  }
  const control = isObject(schema["x-accessControl"]) ? schema["x-accessControl"] : {};
  const permissions = isObject(control.permissions) ? control.permissions : {};
  return {
    name,
    path: file.path,
    fields: [...BUILT_IN, ...fieldsOf(schema, "", 1)],
    access: { read: levelOf(permissions.read), write: levelOf(permissions.write) },
  };
}

/** GET /api/apps/{appId}/entities: the current version's entities but User, by name. */
export async function listEntities(app: App): Promise<EntityList> {
  assertSpaceApp(app);
  // Only the entities' files are read, not the app's every file.
  const tree = await currentTree(app.id);
  const files = await filesOf(app.id, new Map([...tree].filter(([path]) => entityNameOf(path) !== null)));
  const entities = files
    .map(entityView)
    .filter((e): e is EntityView => e !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
  return { entities };
}
