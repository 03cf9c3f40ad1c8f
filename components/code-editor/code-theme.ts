import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorView } from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

// The code editor's look, in the app's colours: light-dark() picks the light or the dark colour
// from the colour scheme the app's theme switch sets on <html> (app/globals.css), so the editor
// follows a switch at once with nothing to reconfigure. Token colours keep 4.5:1 against the
// background and the active line in both schemes (GitHub's palettes).

const c = (light: string, dark: string) => `light-dark(${light}, ${dark})`;

export const codeTheme = EditorView.theme({
  "&": {
    backgroundColor: "var(--background)",
    color: "var(--foreground)",
    fontSize: "0.75rem",
    height: "100%",
  },
  "&.cm-focused": { outline: "2px solid var(--ring)", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: "var(--font-mono, ui-monospace, SFMono-Regular, Menlo, monospace)" },
  ".cm-content": { caretColor: "var(--foreground)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--foreground)" },
  ".cm-gutters": {
    backgroundColor: "var(--muted)",
    color: "var(--muted-foreground)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: c("#f4f4f580", "#27272a80") },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent)", color: "var(--foreground)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    { backgroundColor: c("#bfdbfe", "#1e3a8a") },
  ".cm-selectionMatch": { backgroundColor: c("#dbeafe", "#1e293b") },
  ".cm-matchingBracket, &.cm-focused .cm-matchingBracket": {
    backgroundColor: c("#dcfce7", "#14532d"),
    outline: "none",
  },
  ".cm-foldPlaceholder": { backgroundColor: "var(--muted)", color: "var(--foreground)", border: "none" },
  ".cm-panels": { backgroundColor: "var(--muted)", color: "var(--foreground)" },
  ".cm-tooltip": {
    backgroundColor: "var(--background)",
    color: "var(--foreground)",
    border: "1px solid var(--border)",
  },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": {
    backgroundColor: "var(--accent)",
    color: "var(--foreground)",
  },
});

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.modifier, t.controlKeyword], color: c("#cf222e", "#ff7b72") },
  { tag: [t.string, t.special(t.string), t.regexp], color: c("#0a3069", "#a5d6ff") },
  { tag: [t.comment, t.lineComment, t.blockComment], color: c("#57606a", "#8b949e"), fontStyle: "italic" },
  { tag: [t.number, t.bool, t.null, t.atom, t.literal], color: c("#0550ae", "#79c0ff") },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: c("#6639ba", "#d2a8ff") },
  { tag: [t.definition(t.variableName), t.className], color: c("#953800", "#ffa657") },
  { tag: [t.typeName, t.namespace], color: c("#953800", "#ffa657") },
  { tag: [t.tagName, t.angleBracket], color: c("#116329", "#7ee787") },
  { tag: [t.attributeName, t.propertyName], color: c("#0550ae", "#79c0ff") },
  { tag: t.invalid, color: c("#82071e", "#ffa198") },
]);

export const codeHighlighting = syntaxHighlighting(highlight);
