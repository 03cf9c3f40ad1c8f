import { z } from "zod";
import { REPAIR_ITERATIONS_MAX, VALIDATION_ISSUES_MAX } from "@/lib/constants";
import { storableString } from "@/lib/storable-text";
import { ValidationIssue } from "./validate-schemas";

// The repair of a space app version: its request and answer, shared by the route, the service
// (lib/validation/repair.ts), the editor's Try Repair button and the tests.

/**
 * POST /api/apps/{appId}/versions/{versionId}/repair: "messageId, messageContent, initialIssues,
 * iterations, optional customModel". initialIssues are the validation's issues (the browser ran
 * it: only it knows the preview's runtime errors); iterations are clamped to 1-5, not refused.
 */
export const RepairBody = z
  .object({
    messageId: z.uuid().optional(),
    messageContent: storableString().max(100_000).optional(),
    initialIssues: z.array(ValidationIssue).max(VALIDATION_ISSUES_MAX),
    iterations: z.number().int().optional(),
    /** Compare mode (admins): this model instead of the default one. */
    customModel: storableString().min(1).max(200).optional(),
  })
  .meta({
    examples: [
      {
        initialIssues: [
          {
            message: "'totl' is not defined.",
            componentName: "Stats",
            file: "pages/Stats.jsx",
            detectorId: "no-undef",
            severity: "error",
            line: 26,
          },
        ],
        iterations: 2,
      },
    ],
  });
export type RepairBody = z.infer<typeof RepairBody>;

const ms = z.number().int().min(0);

/** One model call on one file: "aiRepairs with success, modelUsed, processingTimeMs, issueMessage, outputContent". */
export const AiRepair = z.object({
  /** The model gave the file back, changed. */
  success: z.boolean(),
  modelUsed: z.string(),
  processingTimeMs: ms,
  /** The issues it was asked to fix, one a line. */
  issueMessage: z.string(),
  /** The file as the model gave it back (null when it did not). */
  outputContent: z.string().nullable(),
  iteration: z.number().int().min(1).max(REPAIR_ITERATIONS_MAX),
});

/** "repairProcessDetails (fileId, repairSuccess, initialIssueCount, finalIssueCount, aiRepairs)". */
export const RepairFileDetail = z.object({
  /** The file's path (files are named by path). */
  fileId: z.string(),
  /** Its issues are all gone. */
  repairSuccess: z.boolean(),
  initialIssueCount: z.number().int().min(0),
  finalIssueCount: z.number().int().min(0),
  aiRepairs: z.array(AiRepair),
});

/** A repaired file, as POST /api/apps/{appId}/merge takes it. */
export const RepairedFile = z.object({ id: z.string(), path: z.string(), content: z.string() });

/** "Repair result: initialIssues, unresolvedIssues, repairedFiles, repairProcessDetails, ...". */
export const RepairAnswer = z.object({
  initialIssues: z.array(ValidationIssue),
  unresolvedIssues: z.array(ValidationIssue),
  /** The files the repair changed, whole; nothing is written until they are merged (Apply). */
  repairedFiles: z.array(RepairedFile),
  repairProcessDetails: z.array(RepairFileDetail),
  iterationsPerformed: z.number().int().min(0).max(REPAIR_ITERATIONS_MAX),
  executionTimeMs: ms,
  /** The version repaired. */
  previousVersionId: z.uuid(),
  timingBreakdown: z.object({ repairOnlyTimeMs: ms, validationTimeMs: ms }),
  /** The repaired files' build, as the preview would make it: whether it built, and its size. */
  appBundle: z.object({
    ok: z.boolean(),
    jsBytes: z.number().int().min(0),
    cssBytes: z.number().int().min(0),
  }),
});
export type RepairAnswer = z.infer<typeof RepairAnswer>;
