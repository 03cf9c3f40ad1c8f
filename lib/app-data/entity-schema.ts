import "server-only";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { ACCESS_LEVELS } from "@/lib/space/schemas";
import type { AccessLevel, Permissions } from "./access";

// An entity's JSON schema as the data API uses it: its access levels and a validator of its
// records (ajv, formats included). Schemas are content-addressed files of the app's current
// version, so a compiled schema is kept by its content hash and is never stale; the cache is
// bounded, as every app's entities pass through it.

/** Fields every record has, kept by the table itself: a client never writes them. */
export const BUILT_IN_FIELDS = ["id", "creatorId", "createdAt", "updatedAt"] as const;

export type EntitySchema = {
  permissions: Permissions;
  /** The schema's declared fields (a filter may name only these and the built-in ones). */
  fields: Set<string>;
  /** The record's problem as "field: what is wrong", or null when it is valid (defaults filled in). */
  check(data: Record<string, unknown>): { field: string; problem: string } | null;
};

const CACHE_MAX = 500;
const cache = new Map<string, EntitySchema>();

const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, validateFormats: true });
addFormats(ajv);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const levelOf = (v: unknown): AccessLevel =>
  (ACCESS_LEVELS as readonly unknown[]).includes(v) ? (v as AccessLevel) : "creator";

/** The entity's schema from its file's content (by its hash); a 400 naming the problem when unusable. */
export function entitySchemaOf(
  entity: string,
  hash: string,
  content: string,
  builtIn: readonly string[] = BUILT_IN_FIELDS,
): EntitySchema {
  const key = `${entity}\n${hash}\n${builtIn.join(",")}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = compile(entity, content, builtIn);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

function compile(entity: string, content: string, builtIn: readonly string[]): EntitySchema {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    parsed = null;
  }
  if (!isObject(parsed)) throw schemaProblem(entity, "it is not a JSON object");
  const control = isObject(parsed["x-accessControl"]) ? parsed["x-accessControl"] : {};
  const perms = isObject(control.permissions) ? control.permissions : {};
  const properties = isObject(parsed.properties) ? { ...parsed.properties } : {};
  // The built-in fields are the table's: a schema that declares them does not make them writable.
  for (const f of builtIn) delete properties[f];
  const required = Array.isArray(parsed.required)
    ? parsed.required.filter((r) => typeof r === "string" && !builtIn.includes(r))
    : [];
  // Only the draft ajv knows: a model's "$schema" or "$id" would make it refuse or register the schema.
  const { $schema: _s, $id: _i, "x-accessControl": _x, ...rest } = parsed;
  const schema = { ...rest, type: "object", properties, required };
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw schemaProblem(entity, err instanceof Error ? err.message : String(err));
  }
  return {
    permissions: { read: levelOf(perms.read), write: levelOf(perms.write) },
    fields: new Set(Object.keys(properties)),
    check(data) {
      if (validate(data)) return null;
      return problemOf(validate.errors?.[0]);
    },
  };
}

function schemaProblem(entity: string, problem: string): AppError {
  return new AppError(
    "BAD_REQUEST",
    { key: "appDataSchemaInvalid", vars: { entity, problem: problem.slice(0, 200) } },
    "ENTITY_SCHEMA_INVALID",
  );
}

/** ajv's first error as the field it is about ("address.city") and what is wrong with it. */
function problemOf(error: ErrorObject | undefined): { field: string; problem: string } {
  if (!error) return { field: "record", problem: messages.appDataFieldNotValid };
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { field: [...path, missing].join("."), problem: messages.appDataFieldRequired };
  }
  if (error.keyword === "additionalProperties") {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return { field: [...path, extra].join("."), problem: messages.appDataFieldUnknown };
  }
  return { field: path.join(".") || "record", problem: error.message ?? messages.appDataFieldNotValid };
}
