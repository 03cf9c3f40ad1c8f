import { z } from "zod";
import { CustomField } from "@/lib/apps/schemas";
import { FIELD_NAME_MAX, MAGIC_EXISTING_NAMES_MAX, MAGIC_INPUT_MAX, MAGIC_PROMPT_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { storableString } from "@/lib/storable-text";
import { fillTemplate } from "@/lib/text";

// Shapes of the builder's AI helpers, shared by the routes, the editor and the tests.

/** POST /api/builder/magicCreate: input, magicType (field), prompt. */
export const MagicCreateBody = z
  .object({
    /** What the builder typed: a field name, or a few words about the field. */
    input: storableString()
      .trim()
      .min(1)
      .max(
        MAGIC_INPUT_MAX,
        fillTemplate(messages.magicInputTooLong, { max: MAGIC_INPUT_MAX.toLocaleString("en-US") }),
      ),
    magicType: z.literal("field"),
    /** The app's instructions, as context for the model (the editor sends their beginning). */
    prompt: storableString()
      .max(
        MAGIC_PROMPT_MAX,
        fillTemplate(messages.magicPromptTooLong, { max: MAGIC_PROMPT_MAX.toLocaleString("en-US") }),
      )
      .default(""),
    /** The app being edited: its fields count for "unique", and the caller must be allowed to edit it. */
    appId: z.uuid().optional(),
    /** A tool of that app (generated apps): its fields count instead of the app's. */
    toolId: z.uuid().optional(),
    /** Field names the editor holds (unsaved ones included), also kept unique. */
    existingNames: z.array(storableString().max(FIELD_NAME_MAX)).max(MAGIC_EXISTING_NAMES_MAX).default([]),
  })
  .refine((b) => !b.toolId || b.appId, { path: ["toolId"], message: "toolId needs appId" })
  .meta({ examples: [{ input: "Favourite colour", magicType: "field", prompt: "", existingNames: [] }] });
export type MagicCreateBody = z.infer<typeof MagicCreateBody>;

/** The field the model made, with every rule applied: the editor adds it as it is. */
export const MagicCreateAnswer = z.object({ result: CustomField });
export type MagicCreateAnswer = z.infer<typeof MagicCreateAnswer>;
