import type { PreviewIssue } from "@/lib/space/preview/types";

// The floating issues panel's rules, free of React so they can be tested:
// "Issues panel: minimized or expanded; auto-expands when the error count changes, minimizes when
// the last issue is suppressed, clears after a fix once loading ends (minimize delay 1 s)."
// The component feeds it the preview's full list of issues each time it changes, and dispatches
// `settle` ISSUES_MINIMIZE_DELAY_MS after `fixed` is set while nothing is loading.

export type IssuesState = {
  /** Everything the preview reports now. */
  issues: PreviewIssue[];
  /** Keys of the issues the builder dismissed; they stay hidden while the preview reports them. */
  suppressed: string[];
  expanded: boolean;
  /** The issues went away by themselves (a fix): shown as fixed until `settle`. */
  fixed: boolean;
};

export type IssuesAction =
  | { type: "issues"; issues: PreviewIssue[] }
  | { type: "suppress"; key: string }
  | { type: "toggle" }
  | { type: "settle" };

export const initialIssues: IssuesState = { issues: [], suppressed: [], expanded: false, fixed: false };

export const issueKey = (i: PreviewIssue) =>
  JSON.stringify([i.source, i.componentName ?? "", i.title, i.details]);

export function visibleIssues(state: IssuesState): PreviewIssue[] {
  return state.issues.filter((i) => !state.suppressed.includes(issueKey(i)));
}

export function issuesReducer(state: IssuesState, action: IssuesAction): IssuesState {
  switch (action.type) {
    case "issues": {
      const before = visibleIssues(state).length;
      const next = { ...state, issues: action.issues };
      const after = visibleIssues(next).length;
      if (after > 0) {
        // "auto-expands when the error count changes"
        return { ...next, fixed: false, expanded: after !== before ? true : state.expanded };
      }
      // Gone without being dismissed: a fix. Cleared (and minimized) once loading ends.
      return { ...next, fixed: before > 0 || state.fixed };
    }
    case "suppress": {
      if (state.suppressed.includes(action.key)) return state;
      const next = { ...state, suppressed: [...state.suppressed, action.key] };
      // "minimizes when the last issue is suppressed"
      return visibleIssues(next).length === 0 ? { ...next, expanded: false } : next;
    }
    case "toggle":
      return { ...state, expanded: !state.expanded };
    case "settle":
      // "clears after a fix": minimized, and dismissals forgotten so a new error shows again.
      return state.fixed && visibleIssues(state).length === 0
        ? { ...state, fixed: false, expanded: false, suppressed: [] }
        : state;
  }
}
