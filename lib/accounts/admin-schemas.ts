import { z } from "zod";
import { messages } from "@/lib/messages";
import { PLAN_IDS } from "@/lib/plans/catalogue";

// Shapes of the operator's builder routes (/api/admin/builders), shared with the admin page.

export const ADMIN_BUILDERS_PAGE = 100;

export const AdminPlanSchema = z.enum(PLAN_IDS, { error: messages.adminUnknownPlan });

/** GET /api/admin/builders?q= */
export const AdminBuildersQuery = z.object({
  q: z
    .string()
    .trim()
    .max(254)
    // PostgreSQL refuses U+0000 in text: refused here, before it reaches the query.
    .refine((s) => !s.includes("\u0000"), { error: messages.invalidInput })
    .default(""),
});

/** A builder account as the admin page lists it; also the answer of a change. */
export const AdminBuilderAnswer = z.object({
  accountId: z.uuid(),
  email: z.string(),
  plan: z.enum(PLAN_IDS),
  isAdmin: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type AdminBuilderAnswer = z.infer<typeof AdminBuilderAnswer>;

export const AdminBuildersAnswer = z.object({
  builders: z.array(AdminBuilderAnswer),
  /** More builders match than were listed (ADMIN_BUILDERS_PAGE). */
  more: z.boolean(),
});
export type AdminBuildersAnswer = z.infer<typeof AdminBuildersAnswer>;

export const AdminBuilderParams = z.object({ accountId: z.uuid() });

/** PATCH /api/admin/builders/{accountId}: what to change, at least one of the two. */
export const AdminBuilderPatch = z
  .object({ plan: AdminPlanSchema.optional(), isAdmin: z.boolean().optional() })
  .refine((b) => b.plan !== undefined || b.isAdmin !== undefined, { error: messages.invalidInput })
  .meta({ examples: [{ plan: "explorer" }] });
export type AdminBuilderPatch = z.infer<typeof AdminBuilderPatch>;
