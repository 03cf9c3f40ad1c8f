import "server-only";
import { ENTITY_RECORD_BYTES_MAX } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { BUILT_IN_FIELDS, type EntitySchema } from "./entity-schema";

type Fields = { [key: string]: unknown };

function invalid(field: string, problem: string): AppError {
  const err = new AppError(
    "BAD_REQUEST",
    { key: "appDataFieldInvalid", vars: { field, problem } },
    "VALIDATION_FAILED",
  );
  err.field = field;
  return err;
}

/** The fields a record will hold, checked: no built-in field, within the size cap, valid by the schema. */
export function checkedFields(
  schema: EntitySchema | null,
  fields: Fields,
  at = "",
  builtIn: readonly string[] = BUILT_IN_FIELDS,
): Fields {
  for (const f of builtIn) {
    if (Object.hasOwn(fields, f)) {
      const err = new AppError(
        "BAD_REQUEST",
        { key: "appDataBuiltInField", vars: { field: f } },
        "VALIDATION_FAILED",
      );
      err.field = `${at}${f}`;
      throw err;
    }
  }
  if (Buffer.byteLength(JSON.stringify(fields), "utf8") > ENTITY_RECORD_BYTES_MAX) {
    throw new AppError("PAYLOAD_TOO_LARGE", {
      key: "appDataRecordTooLarge",
      vars: { size: `${ENTITY_RECORD_BYTES_MAX / 1000} kB` },
    });
  }
  // The validator fills in the schema's defaults: it works on a copy.
  const data = structuredClone(fields);
  const problem = schema?.check(data);
  if (problem) throw invalid(`${at}${problem.field}`, problem.problem);
  return data;
}
