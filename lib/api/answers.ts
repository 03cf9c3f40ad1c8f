import { z } from "zod";

// Answers many routes share. A route's own answer schema lives beside its input schemas
// (lib/<domain>/schemas.ts), named <Thing>Answer.

/** What a route answers when its handler returns nothing (lib/api/route.ts). */
export const OkAnswer = z.object({ ok: z.literal(true) });
