import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { extractFirstJson } from "@/lib/json/extract-first-json";
import { messages } from "@/lib/messages";

function failureOf(text: string): AppError {
  try {
    extractFirstJson(text);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`expected no JSON in ${JSON.stringify(text)}`);
}

describe("extractFirstJson", () => {
  it("parses a bare object", () => {
    expect(extractFirstJson('{"a":1,"b":[1,2,{"c":null}]}')).toEqual({ a: 1, b: [1, 2, { c: null }] });
  });

  it("parses an empty object", () => {
    expect(extractFirstJson("{}")).toEqual({});
  });

  it("skips prose before and after", () => {
    const text = 'Sure! Here is the result:\n{"title": "Hello", "score": 0.9}\nLet me know if you need more.';
    expect(extractFirstJson(text)).toEqual({ title: "Hello", score: 0.9 });
  });

  it("reads inside a ```json fence", () => {
    const text = 'Here you go:\n```json\n{\n  "items": [\n    {"id": 1},\n    {"id": 2}\n  ]\n}\n```\nDone.';
    expect(extractFirstJson(text)).toEqual({ items: [{ id: 1 }, { id: 2 }] });
  });

  it("reads inside a bare ``` fence", () => {
    expect(extractFirstJson('```\n{"ok": true}\n```')).toEqual({ ok: true });
  });

  it("keeps braces that are inside strings", () => {
    const text = 'x {"template": "Hello {name}, you have {{count}} items}", "n": 2} y';
    expect(extractFirstJson(text)).toEqual({ template: "Hello {name}, you have {{count}} items}", n: 2 });
  });

  it("keeps a closing brace alone inside a string", () => {
    expect(extractFirstJson('{"a": "}"} and {"b": 2}')).toEqual({ a: "}" });
  });

  it("handles escaped quotes and escaped backslashes in strings", () => {
    const text = String.raw`{"quote": "she said \"hi {there}\"", "path": "C:\\dir\\", "after": 1}`;
    expect(extractFirstJson(text)).toEqual({ quote: 'she said "hi {there}"', path: "C:\\dir\\", after: 1 });
  });

  it("handles a string that ends in an escaped backslash before the closing quote", () => {
    // "\\" is one backslash: the quote after it really closes the string, so the } closes the object.
    expect(extractFirstJson(String.raw`{"a":"\\"}`)).toEqual({ a: "\\" });
  });

  it("handles unicode and escapes", () => {
    expect(extractFirstJson('Résumé: {"name": "Zoë \\u00e9 ✓", "emoji": "🎉"}')).toEqual({
      name: "Zoë é ✓",
      emoji: "🎉",
    });
  });

  it("returns the first of two objects", () => {
    expect(extractFirstJson('{"first": 1} then {"second": 2}')).toEqual({ first: 1 });
  });

  it("skips a first candidate that is not JSON for the next one", () => {
    const text = 'Fill {name} in the template, then:\n{"name": "Ada"}';
    expect(extractFirstJson(text)).toEqual({ name: "Ada" });
  });

  it("skips single-quoted and trailing-comma objects", () => {
    expect(extractFirstJson('{\'a\': 1} {"a": 2,} {"a": 3}')).toEqual({ a: 3 });
  });

  it("takes an inner object when the outer one is not JSON", () => {
    // Candidates are tried by where they open, nested ones included.
    expect(extractFirstJson('{oops {"inner": true} }')).toEqual({ inner: true });
  });

  it("takes the first complete inner object of a truncated answer", () => {
    const text = '{"items": [{"id": 1}, {"id": 2}, {"id": ';
    expect(extractFirstJson(text)).toEqual({ id: 1 });
  });

  it("finds an object that opens inside what an earlier brace read as a string", () => {
    // From the first brace the quote opens a string that swallows the rest; from the second
    // brace the quotes pair up into valid JSON.
    expect(extractFirstJson('{ it" {"k": 1}')).toEqual({ k: 1 });
  });

  it("ignores arrays and scalars, only objects count", () => {
    expect(extractFirstJson('[1, 2, 3] and then {"x": [1]}')).toEqual({ x: [1] });
    expect(failureOf("[1, 2, 3]")).toBeInstanceOf(AppError);
    expect(failureOf("42")).toBeInstanceOf(AppError);
  });

  it("ignores unbalanced closing braces before the object", () => {
    expect(extractFirstJson('}} oops }{"a": 1}')).toEqual({ a: 1 });
  });

  it("throws the catalogue error when there is no object", () => {
    for (const text of ["", "no json here", "{", "{ not json }", '{"a": 1', '{"a": "unterminated}']) {
      const error = failureOf(text);
      expect(error.kind).toBe("BAD_REQUEST");
      expect(error.status).toBe(400);
      expect(error.code).toBe("LLM_OUTPUT_NOT_JSON");
      expect(error.messageKey).toBe("llmOutputNotJson");
      expect(error.message).toBe(messages.llmOutputNotJson);
    }
  });

  it("stays fast on long brace-heavy output with no answer", () => {
    const text = "{".repeat(200_000);
    const started = performance.now();
    expect(failureOf(text)).toBeInstanceOf(AppError);
    // Linear work takes milliseconds; the naive rescan from every brace would take minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("stays fast on a long truncated answer", () => {
    const text = `{"rows": [${'{"a": "x {", "b": [1, 2]}, '.repeat(20_000)}`;
    const started = performance.now();
    expect(extractFirstJson(text)).toEqual({ a: "x {", b: [1, 2] });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
