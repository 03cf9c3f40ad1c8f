import { z } from "zod";
import {
  SECRET_INSTRUCTIONS_MAX,
  SECRET_KEY_MAX,
  SECRET_KEY_PATTERN,
  SECRET_MASK,
  SECRET_VALUE_MAX,
  SECRETS_PER_APP_MAX,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import { storableString } from "@/lib/storable-text";
import { fillTemplate } from "@/lib/text";

// The secrets routes' inputs and answers (/api/apps/{appId}/secrets), shared by the routes, the
// dialogs and the tests. No server imports: the UI imports this file. No message here repeats
// what was sent: a refused value never comes back in an error.

export const SecretKey = z
  .string()
  .max(SECRET_KEY_MAX, fillTemplate(messages.secretKeyInvalid, { max: SECRET_KEY_MAX }))
  .regex(SECRET_KEY_PATTERN, fillTemplate(messages.secretKeyInvalid, { max: SECRET_KEY_MAX }));

export const SecretParams = z.object({ appId: z.uuid(), key: SecretKey });

export const SecretInput = z.object({
  key: SecretKey,
  value: storableString()
    .min(1, messages.secretsKeyAndValueRequired)
    .max(SECRET_VALUE_MAX, fillTemplate(messages.secretValueTooLong, { max: SECRET_VALUE_MAX })),
  /** Omitted: a secret already there keeps its instructions; null or "" clears them. */
  instructions: storableString()
    .max(
      SECRET_INSTRUCTIONS_MAX,
      fillTemplate(messages.secretInstructionsTooLong, { max: SECRET_INSTRUCTIONS_MAX }),
    )
    .nullable()
    .optional(),
});
export type SecretInput = z.infer<typeof SecretInput>;

/** POST /api/apps/{appId}/secrets: secrets to add or replace. */
export const SaveSecretsBody = z
  .object({
    secrets: z
      .array(SecretInput)
      .min(1, messages.secretsKeyAndValueRequired)
      .max(SECRETS_PER_APP_MAX, fillTemplate(messages.secretsTooMany, { max: SECRETS_PER_APP_MAX })),
  })
  .meta({
    examples: [
      {
        secrets: [
          {
            key: "STRIPE_SECRET_KEY",
            value: "sk_test_123",
            instructions: "Stripe dashboard, Developers → API keys",
          },
        ],
      },
    ],
  });
export type SaveSecretsBody = z.infer<typeof SaveSecretsBody>;

/** A secret as answered: its value is always the mask. */
export const SecretAnswer = z.object({
  key: z.string(),
  value: z.literal(SECRET_MASK).describe("Always the mask: a value never leaves the server once saved"),
  instructions: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SecretView = z.infer<typeof SecretAnswer>;

export const SecretListAnswer = z.object({ secrets: z.array(SecretAnswer) });
export type SecretList = z.infer<typeof SecretListAnswer>;

export const SecretDeletedAnswer = z.object({ deleted: z.literal(true) });
