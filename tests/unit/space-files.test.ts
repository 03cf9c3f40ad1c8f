import { describe, expect, it } from "vitest";
import { SPACE_FILE_MAX_BYTES } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { applyChanges, fileItem, hashContent, isValidPath } from "@/lib/space/files";
import { reasonsFor } from "@/lib/space/rating";
import {
  HistoryQuery,
  RATING_POSITIVE_REASONS,
  RATING_PROBLEM_REASONS,
  RatingBody,
} from "@/lib/space/schemas";

// The pure parts of space apps' files (lib/space/files.ts) and the rating reasons (positive from 4, problems below).

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("no error");
};

describe("paths", () => {
  it("accepts relative paths of a web app and refuses escapes", () => {
    for (const ok of [
      "pages/Home.jsx",
      "globals.css",
      "components/ui/button.tsx",
      "functions/send-mail.ts",
    ]) {
      expect(isValidPath(ok), ok).toBe(true);
    }
    for (const bad of [
      "",
      "/etc/passwd",
      "../x",
      "pages/../../x",
      "pages//x",
      "a\\b",
      "pages/ x.js",
      "./x",
      "x".repeat(301),
    ]) {
      expect(isValidPath(bad), bad).toBe(false);
    }
  });

  it("names a file's type, language and read-only flag", () => {
    expect(fileItem("pages/Home.jsx", "x")).toMatchObject({
      type: "pages",
      language: "javascript",
      readOnly: false,
      name: "Home.jsx",
    });
    expect(fileItem("entities/Task.json", "{}")).toMatchObject({
      type: "entities",
      language: "json",
      readOnly: true,
    });
    expect(fileItem("Layout.jsx", "")).toMatchObject({ type: "layout" });
    expect(fileItem("globals.css", "")).toMatchObject({ type: "globals css", language: "css" });
    expect(fileItem("functions/hook.ts", "")).toMatchObject({ type: "functions", language: "typescript" });
    expect(fileItem("README.md", "")).toMatchObject({ type: "other", language: "markdown" });
  });
});

describe("applyChanges", () => {
  const before = new Set(["pages/Home.jsx", "globals.css"]);
  const contents: Record<string, string> = {
    "pages/Home.jsx": "<h1>Hello</h1><p>Hello world</p>",
    "globals.css": "a{}",
  };
  const contentOf = (p: string) => contents[p];

  it("applies changes in order: a partial edit after the add that made its file", () => {
    const out = applyChanges(
      before,
      [
        { type: "add_file", path: "pages/About.jsx", content: "<p>About</p>" },
        { type: "partial_edit", path: "pages/About.jsx", edits: [{ find: "About", replace: "About us" }] },
        {
          type: "partial_edit",
          path: "pages/Home.jsx",
          edits: [{ find: "<h1>Hello</h1>", replace: "<h1>Hi</h1>" }],
        },
        { type: "delete_file", path: "globals.css" },
        { type: "add_entity", name: "Task", content: '{"type":"object"}' },
      ],
      contentOf,
    );
    expect(Object.fromEntries(out)).toEqual({
      "pages/About.jsx": "<p>About us</p>",
      "pages/Home.jsx": "<h1>Hi</h1><p>Hello world</p>",
      "globals.css": null,
      "entities/Task.json": '{"type":"object"}',
    });
  });

  it("refuses a partial edit whose part is missing, repeated, or whose file does not exist", () => {
    const edit = (path: string, find: string) => () =>
      applyChanges(before, [{ type: "partial_edit", path, edits: [{ find, replace: "x" }] }], contentOf);
    expect(errorOf(edit("pages/Home.jsx", "Bye")).code).toBe("EDIT_NOT_FOUND");
    expect(errorOf(edit("pages/Home.jsx", "Hello")).code).toBe("EDIT_AMBIGUOUS");
    expect(errorOf(edit("pages/None.jsx", "Hello")).code).toBe("FILE_MISSING");
  });

  it("refuses bad paths, entities that are no JSON object, and files over the size cap", () => {
    expect(
      errorOf(() => applyChanges(before, [{ type: "add_file", path: "../x", content: "" }], contentOf))
        .message,
    ).toBe("The file path ../x is not valid");
    expect(
      errorOf(() => applyChanges(before, [{ type: "add_entity", name: "Task", content: "[1]" }], contentOf))
        .code,
    ).toBe("ENTITY_INVALID");
    expect(
      errorOf(() => applyChanges(before, [{ type: "add_entity", name: "../Task", content: "{}" }], contentOf))
        .code,
    ).toBe("ENTITY_NAME_INVALID");
    const big = "x".repeat(SPACE_FILE_MAX_BYTES + 1);
    expect(
      errorOf(() => applyChanges(before, [{ type: "add_file", path: "a.txt", content: big }], contentOf))
        .code,
    ).toBe("FILE_TOO_LARGE");
  });

  it("addresses content by its SHA-256", () => {
    expect(hashContent("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hashContent("é")).toBe(hashContent("\u00e9"));
  });
});

describe("ratings and history input", () => {
  it("positive reasons from a score of 4, problem reasons below, word for word", () => {
    expect(reasonsFor(4)).toEqual([
      "I love it!",
      "Clear explanations",
      "Fast and efficient",
      "Understood perfectly",
      "Beautiful design",
    ]);
    expect(reasonsFor(5)).toBe(RATING_POSITIVE_REASONS);
    expect(reasonsFor(3)).toEqual([
      "Gets stuck in loops",
      "Doesn't implement the changes",
      "Design looks poor",
      "Code has bugs or errors",
      "Response is off-topic",
      "Takes too long to respond",
      "Misunderstands my requirements",
      "Explanation is unclear",
    ]);
    expect(reasonsFor(1)).toBe(RATING_PROBLEM_REASONS);
    expect(messages.ratingAlreadyRated).toBe("already rated");
  });

  it("a score of at least 1 and at most 5", () => {
    const id = crypto.randomUUID();
    expect(RatingBody.safeParse({ messageId: id, score: 0 }).success).toBe(false);
    expect(RatingBody.safeParse({ messageId: id, score: 6 }).success).toBe(false);
    expect(RatingBody.safeParse({ messageId: id, score: 2.5 }).success).toBe(false);
    expect(RatingBody.parse({ messageId: id, score: 1 })).toEqual({ messageId: id, score: 1, feedback: [] });
  });

  it("reads ?fromMessageId=&limit=50 with an empty id as none", () => {
    expect(HistoryQuery.parse({ fromMessageId: "", limit: "50" })).toEqual({ limit: 50 });
    expect(HistoryQuery.parse({})).toEqual({ limit: 50 });
    expect(HistoryQuery.safeParse({ limit: "51" }).success).toBe(false);
    expect(HistoryQuery.safeParse({ fromMessageId: "nope" }).success).toBe(false);
  });
});
