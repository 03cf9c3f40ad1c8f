import type { z } from "zod";
import type { EntityField } from "@/lib/space/schemas";

// The entity's JSON schema as the mapping request sends it, rebuilt in the browser from the
// fields the Database panel already has (GET .../entities): the top-level properties with their
// type, format, enum and item enum, which is all the mapping reads. Pure (client-safe).

type Field = z.infer<typeof EntityField>;

export function schemaOfFields(fields: readonly Field[]): {
  type: "object";
  properties: Record<string, unknown>;
} {
  const properties: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.builtIn || f.name.includes(".")) continue;
    const types = f.type.split(" or ");
    properties[f.name] = {
      type: types.length === 1 ? types[0] : types,
      ...(f.format ? { format: f.format } : {}),
      ...(f.enum ? { enum: f.enum } : {}),
      ...(f.items ? { items: { type: f.items, ...(f.itemEnum ? { enum: f.itemEnum } : {}) } } : {}),
    };
  }
  return { type: "object", properties };
}
