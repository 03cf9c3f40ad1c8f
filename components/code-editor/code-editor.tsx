"use client";

import { indentWithTab } from "@codemirror/commands";
import { css } from "@codemirror/lang-css";
import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { Annotation, Compartment, EditorState, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { useEffect, useRef } from "react";
import { cn } from "@/lib/utils";
import { codeHighlighting, codeTheme } from "./code-theme";

// CodeMirror 6 in React: one view per mounted editor, made once; the document, the language and
// the read-only flag change through transactions and compartments, so the undo history and the
// cursor survive a save. Tab indents (CodeMirror's own tab focus mode: Escape, then Tab, leaves).

/** The language support of a file, by its name: JS and JSX, TS and TSX, CSS, JSON. */
export function languageOf(path: string): Extension {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  switch (ext) {
    case "js":
    case "jsx":
    case "mjs":
      return javascript({ jsx: true });
    case "ts":
      return javascript({ typescript: true });
    case "tsx":
      return javascript({ typescript: true, jsx: true });
    case "css":
      return css();
    case "json":
      return json();
    default:
      return [];
  }
}

/** Marks the changes made from outside (a value passed in): they are not the builder's typing. */
const fromOutside = Annotation.define<boolean>();

/**
 * Read-only stays focusable and selectable (a reader scrolls and copies by keyboard); the
 * text area says so to assistive technology. Its tabindex is spelled out: a checker that does not
 * count an editable element as focusable would call the scrolling box unreachable by keyboard.
 */
const readOnlyExt = (ro: boolean) => EditorState.readOnly.of(ro);
const attrsExt = (name: string, ro: boolean) =>
  EditorView.contentAttributes.of({
    "aria-label": name,
    "aria-readonly": ro ? "true" : "false",
    tabindex: "0",
  });

export function CodeEditor({
  path,
  value,
  readOnly,
  label,
  onChange,
  className,
  testId,
}: {
  /** The file shown: its extension picks the language. */
  path: string;
  /** The document; a value that differs from the editor's replaces it (a file taken from elsewhere). */
  value: string;
  readOnly: boolean;
  /** The accessible name of the text area. */
  label: string;
  onChange?: (value: string) => void;
  className?: string;
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const compartments = useRef({ lang: new Compartment(), ro: new Compartment(), attrs: new Compartment() });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once; later props reach it through the effects below.
  useEffect(() => {
    const { lang, ro, attrs } = compartments.current;
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          keymap.of([indentWithTab]),
          codeTheme,
          codeHighlighting,
          lang.of(languageOf(path)),
          ro.of(readOnlyExt(readOnly)),
          attrs.of(attrsExt(label, readOnly)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && u.transactions.some((tr) => !tr.annotation(fromOutside))) {
              onChangeRef.current?.(u.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.lang.reconfigure(languageOf(path)) });
  }, [path]);

  useEffect(() => {
    const { ro, attrs } = compartments.current;
    view.current?.dispatch({
      effects: [ro.reconfigure(readOnlyExt(readOnly)), attrs.reconfigure(attrsExt(label, readOnly))],
    });
  }, [readOnly, label]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    if (current !== value)
      v.dispatch({
        changes: { from: 0, to: current.length, insert: value },
        annotations: fromOutside.of(true),
      });
  }, [value]);

  return (
    <div
      ref={host}
      data-testid={testId}
      className={cn("min-h-0 overflow-hidden rounded-md border border-border", className)}
    />
  );
}
