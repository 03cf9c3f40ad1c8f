// The text format of PostgreSQL's COPY FROM STDIN, which the ingestion writes an item's rows and
// chunks with (db/queries/context-content.ts): one line a row, columns separated by tabs. Within a value a
// backslash, newline, carriage return or tab would end or corrupt the line, so each is written as
// its backslash escape; every other character goes as it is (PostgreSQL reads the rest literally,
// `\N` included once its backslash is doubled).

const ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  // PostgreSQL's text cannot hold a NUL character (COPY would refuse the whole batch): dropped.
  "\0": "",
};
const SPECIAL = /[\\\n\r\t\0]/;
const SPECIALS = /[\\\n\r\t\0]/g;

/** A text value as one column of a COPY text-format line. */
export function copyText(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value;
}

/**
 * A JSON object as one jsonb column of a COPY text-format line. A NUL character is dropped from its
 * keys and values: jsonb refuses `\u0000`, the escape JSON.stringify gives it.
 */
export function copyJson(value: Record<string, string>): string {
  let json = JSON.stringify(value);
  if (json.includes("\\u0000")) {
    const strip = (s: string) => s.replaceAll("\0", "");
    json = JSON.stringify(Object.fromEntries(Object.entries(value).map(([k, v]) => [strip(k), strip(v)])));
  }
  return copyText(json);
}
