import "server-only";
import { findRunContext } from "@/db/queries/runs";
import type { App, RunContext } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import type { RunContextAnswer, RunContextEmpty } from "./schemas";

// GET /api/apps/{appId}/runs/{runId}/context: what a run's model was grounded in, for the app's
// builder (the route loads the app for its owner or an admin; anybody else got 404 already).
// Scores are for admins only: the answer is built field by field, so a builder's never holds one.

export async function getRunContext(app: App, runId: string, session: Session): Promise<RunContextAnswer> {
  const row = await findRunContext(app.id, runId);
  if (!row) throw new AppError("NOT_FOUND", "runNotFound");
  const scores = session.account?.isAdmin === true;
  const c = row.context;
  const nameOf = (itemId: string, fallback: string) => row.itemNames[itemId] ?? fallback;
  const answer: RunContextAnswer = {
    runId,
    kind: c && c.kind !== "none" ? c.kind : null,
    excerpts: [],
    rows: [],
    empty: null,
    scores,
  };
  if (c?.kind === "chunks") {
    answer.excerpts = c.excerpts.map((e) => ({
      itemId: e.itemId,
      // As the model read it: a source renamed since keeps the name the run sent.
      itemName: e.itemName,
      position: e.position,
      text: e.text,
      ...(scores ? { score: e.score } : {}),
    }));
  } else if (c?.kind === "rows") {
    answer.rows = c.rows.map((r) => ({
      itemId: r.itemId,
      itemName: nameOf(r.itemId, ""),
      position: r.position,
      data: r.data,
    }));
  }
  answer.empty = row.status === "running" && !c ? "running" : emptyReason(c, row.hasSources);
  return answer;
}

/** Why nothing is shown, in the order a builder would fix it; null when something is. */
function emptyReason(c: RunContext | null, hasSources: boolean): RunContextEmpty | null {
  if (!c) return "notRecorded";
  if (c.kind === "chunks" && c.excerpts.length) return null;
  if (c.kind === "rows" && c.rows.length) return null;
  if (!hasSources) return "noSources";
  if (c.kind === "none") return "noWords";
  return c.kind === "rows" ? "noRowsMatched" : "nothingMatched";
}
