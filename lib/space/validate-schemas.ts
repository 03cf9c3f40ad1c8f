import { z } from "zod";
import { VALIDATION_RUNTIME_ERRORS_MAX } from "@/lib/constants";
import { storableString } from "@/lib/storable-text";

// The validation of a space app version: its request and answer, shared by the route, the
// service (lib/validation/service.ts), the editor's Validate button and the tests.

/** Where an issue was found: the detector that found it. */
export const DETECTOR_IDS = [
  /** The preview's esbuild build: syntax errors and imports that resolve to nothing. */
  "build",
  /** ESLint's parser, on a file the build did not reach. */
  "lint-syntax",
  /** ESLint with the React hooks rules. */
  "rules-of-hooks",
  "exhaustive-deps",
  /** ESLint's no-undef, with the browser's and JSX's names. */
  "no-undef",
  /** An entity schema: JSON, JSON Schema (ajv) and the rules of our entities. */
  "entity-schema",
  /** An error the preview reported while the app ran. */
  "runtime",
] as const;

/** "Issue: message, componentName, detectorId, severity, line", and the file it is in. */
export const ValidationIssue = z.object({
  message: z.string(),
  /** The file's component: its name without folder and extension ("TaskList"); null when no file. */
  componentName: z.string().nullable(),
  /** The app's file the issue is in ("components/TaskList.jsx"), null when it is about no one file. */
  file: z.string().nullable(),
  detectorId: z.enum(DETECTOR_IDS),
  severity: z.enum(["error", "warning"]),
  /** 1-based; null when the detector could not tell the line. */
  line: z.number().int().min(1).nullable(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** An error the preview reported ("App error: title, details, componentName"), as its frame posted it. */
export const ReportedRuntimeError = z.object({
  title: storableString().max(2_000),
  details: storableString().max(8_000),
  componentName: storableString().max(200).nullable(),
  source: z.enum(["build", "runtime"]),
});

/**
 * POST /api/apps/{appId}/versions/{versionId}/validate: "messageId, messageContent" (the message
 * whose version is checked; kept for the repair that follows) and the errors the preview
 * reported while it ran this version (the preview runs in the builder's browser, so only the
 * browser knows them).
 */
export const ValidateBody = z
  .object({
    messageId: z.uuid().optional(),
    messageContent: storableString().max(100_000).optional(),
    runtimeErrors: z.array(ReportedRuntimeError).max(VALIDATION_RUNTIME_ERRORS_MAX).optional(),
  })
  .meta({
    examples: [
      {
        runtimeErrors: [
          {
            title: "Cannot read properties of undefined (reading 'map')",
            details: "TypeError: Cannot read properties of undefined (reading 'map')",
            componentName: "TaskList",
            source: "runtime",
          },
        ],
      },
    ],
  });
export type ValidateBody = z.infer<typeof ValidateBody>;

/** "Validation result: issues, clientExecutionTimeMs". */
export const ValidationAnswer = z.object({
  issues: z.array(ValidationIssue),
  /** How long the server took to check the version. */
  clientExecutionTimeMs: z.number().int().min(0),
});
export type ValidationAnswer = z.infer<typeof ValidationAnswer>;
