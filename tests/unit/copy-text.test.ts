import { describe, expect, it } from "vitest";
import { copyJson, copyText } from "@/db/copy-text";

// COPY's text format: one line a row, tab-separated; within a value \\, \n, \r and \t are the
// escapes PostgreSQL reads back as backslash, newline, carriage return and tab.

describe("copyText", () => {
  it("leaves plain text as it is", () => {
    expect(copyText("")).toBe("");
    expect(copyText("name: Green tea; price: 4.50")).toBe("name: Green tea; price: 4.50");
    expect(copyText(`quotes " and ' and commas, semicolons;`)).toBe(`quotes " and ' and commas, semicolons;`);
  });

  it("escapes the characters that would end a column or a line, and the backslash", () => {
    expect(copyText("a\tb")).toBe("a\\tb");
    expect(copyText("line one\nline two")).toBe("line one\\nline two");
    expect(copyText("windows\r\nline")).toBe("windows\\r\\nline");
    expect(copyText("C:\\path\\file")).toBe("C:\\\\path\\\\file");
    expect(copyText("\t\n\r\\")).toBe("\\t\\n\\r\\\\");
  });

  it("never yields a bare tab or newline, so a value stays one column of one line", () => {
    const nasty = "x\t\ty\n\n\\\n\r\tz";
    const encoded = copyText(nasty);
    expect(encoded).not.toMatch(/[\t\n\r]/);
    // Every backslash in the output starts an escape PostgreSQL knows.
    expect(encoded.replace(/\\[\\tnr]/g, "")).not.toContain("\\");
  });

  it("doubles the backslash of text that looks like COPY's own markers (\\N is NULL, \\. the end)", () => {
    expect(copyText("\\N")).toBe("\\\\N");
    expect(copyText("\\.")).toBe("\\\\.");
  });

  it("drops NUL, which PostgreSQL's text cannot hold, and keeps every other character", () => {
    expect(copyText("a\0b")).toBe("ab");
    expect(copyText("émoji 😀 中文 \u00a0 \u2028")).toBe("émoji 😀 中文 \u00a0 \u2028");
  });
});

describe("copyJson", () => {
  it("is the object's JSON, its backslashes escaped for COPY", () => {
    expect(copyJson({ name: "Green tea", price: "4.50" })).toBe('{"name":"Green tea","price":"4.50"}');
    // JSON writes a quote as \" and a newline as \n: COPY must give PostgreSQL those backslashes.
    expect(copyJson({ note: 'say "hi"\nbye' })).toBe('{"note":"say \\\\"hi\\\\"\\\\nbye"}');
    expect(copyJson({ path: "C:\\dir" })).toBe('{"path":"C:\\\\\\\\dir"}');
    expect(copyJson({ tab: "a\tb" })).toBe('{"tab":"a\\\\tb"}');
  });

  it("drops NUL from keys and values (jsonb refuses \\u0000), and only NUL", () => {
    expect(copyJson({ "na\0me": "Gre\0en" })).toBe('{"name":"Green"}');
    // A backslash followed by u0000 is text, not NUL: kept.
    expect(copyJson({ v: "\\u0000" })).toBe('{"v":"\\\\\\\\u0000"}');
  });
});
