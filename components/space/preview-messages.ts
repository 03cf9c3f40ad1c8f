import type { PreviewIssue } from "@/lib/space/preview/types";

// What a preview frame posts is the app's code talking: read it as untrusted data, keep only
// well-formed issues, bounded in number and length.

const MAX_ISSUES = 50;
const clip = (v: unknown, n: number) => (typeof v === "string" ? v.slice(0, n) : "");

export function readFrameIssues(data: { issues?: unknown }): PreviewIssue[] {
  if (!Array.isArray(data.issues)) return [];
  return data.issues
    .filter((i): i is Record<string, unknown> => typeof i === "object" && i !== null)
    .slice(0, MAX_ISSUES)
    .map((i) => ({
      title: clip(i.title, 500),
      details: clip(i.details, 5000),
      componentName: typeof i.componentName === "string" ? i.componentName.slice(0, 200) : null,
      source: i.source === "build" ? "build" : "runtime",
    }));
}
