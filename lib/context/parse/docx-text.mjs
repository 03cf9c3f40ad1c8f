// The text of a Word document, with what sits beside its body: footnotes, endnotes, comments and
// text boxes. Plain JavaScript: it runs in the parsing worker (worker.mjs).
//
// mammoth reads all of them into its document tree (a text box's paragraphs come right after the
// paragraph holding it), but its raw-text reader walks the body only. The tree is taken here
// through mammoth's `transformDocument` hook and written out as text: one line per paragraph, a
// table row per line with its cells apart, each note or comment marked where it is referenced
// ("[Footnote 1]") and its text at the end under the same label ("Footnote 1: ..."), so a search
// finds a note's words and the excerpt says what they are.

const CELL_SEPARATOR = " | ";

/** The text of a .docx file's bytes (a Buffer); throws for a file mammoth cannot read. */
export async function readDocx(buffer) {
  const mammoth = (await import("mammoth")).default;
  let text = "";
  await mammoth.convertToHtml(
    { buffer },
    {
      transformDocument: (document) => {
        text = documentText(document);
        // The HTML is not used: the conversion is given nothing to convert (no picture unpacked).
        return { ...document, children: [], comments: [] };
      },
    },
  );
  return text;
}

/** mammoth's document tree as text: the body, then each referenced note and comment. */
export function documentText(document) {
  const labels = new Labels();
  const lines = [];
  blockLines(document.children, labels, lines);
  // A note's text may reference a comment: notes first, so the comment is numbered before it is written.
  for (const note of labels.notes) {
    const resolved = document.notes?.resolve(note.reference);
    if (resolved) lines.push(`${note.label}: ${blocksText(resolved.body, labels)}`);
  }
  const comments = new Map((document.comments ?? []).map((c) => [c.commentId, c]));
  // Every comment is kept; one no reference points at (not written by Word) is numbered last.
  for (const c of comments.values()) labels.comment(c.commentId);
  for (const { id, label } of labels.comments) {
    const comment = comments.get(id);
    if (!comment) continue;
    const author = comment.authorName || comment.authorInitials;
    lines.push(`${label}${author ? ` (by ${author})` : ""}: ${blocksText(comment.body, labels)}`);
  }
  return lines.map(tidy).filter(Boolean).join("\n");
}

/** The numbers given to notes and comments, in the order the text references them. */
class Labels {
  notes = [];
  comments = [];
  #notes = new Map();
  #comments = new Map();
  #counts = { footnote: 0, endnote: 0 };

  note(reference) {
    const key = `${reference.noteType}-${reference.noteId}`;
    let label = this.#notes.get(key);
    if (!label) {
      const kind = reference.noteType === "endnote" ? "endnote" : "footnote";
      label = `${kind === "endnote" ? "Endnote" : "Footnote"} ${++this.#counts[kind]}`;
      this.#notes.set(key, label);
      this.notes.push({ reference, label });
    }
    return label;
  }

  comment(id) {
    let label = this.#comments.get(id);
    if (!label) {
      label = `Comment ${this.comments.length + 1}`;
      this.#comments.set(id, label);
      this.comments.push({ id, label });
    }
    return label;
  }
}

/** Paragraphs and tables, one line each paragraph and each table row. */
function blockLines(elements, labels, lines) {
  for (const element of elements ?? []) {
    if (element.type === "table") {
      for (const row of element.children ?? []) lines.push(rowText(row, labels));
    } else if (element.type === "paragraph") {
      lines.push(inlineText(element.children, labels));
    } else {
      lines.push(inlineText([element], labels));
    }
  }
}

/** Blocks on one line (a note's paragraphs, a table cell's). */
function blocksText(elements, labels) {
  const lines = [];
  blockLines(elements, labels, lines);
  return lines
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" ");
}

function rowText(row, labels) {
  if (row.type !== "tableRow") return blocksText([row], labels);
  return (row.children ?? [])
    .map((cell) => blocksText(cell.type === "tableCell" ? cell.children : [cell], labels))
    .join(CELL_SEPARATOR);
}

/** The text of a paragraph's runs, links, breaks and references. */
function inlineText(elements, labels) {
  let text = "";
  for (const element of elements ?? []) {
    switch (element.type) {
      case "text":
        text += element.value;
        break;
      case "tab":
        text += "\t";
        break;
      case "break":
        text += "\n";
        break;
      case "noteReference":
        text += `[${labels.note(element)}]`;
        break;
      case "commentReference":
        text += `[${labels.comment(element.commentId)}]`;
        break;
      case "table":
      case "paragraph":
        // Blocks inside a paragraph (not written by Word): their text, kept apart.
        text += ` ${blocksText([element], labels)} `;
        break;
      default:
        if (element.children) text += inlineText(element.children, labels);
    }
  }
  return text;
}

/** A line's whitespace collapsed; a line break inside a paragraph stays one. */
function tidy(line) {
  return line
    .split("\n")
    .map((part) => part.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}
