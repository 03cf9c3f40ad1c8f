import { parentPort } from "node:worker_threads";
import { BROWSER_GLOBALS } from "./browser-globals.mjs";

// The validation worker: reads a space app's code and entity schemas on a thread of its own, with
// a heap of its own, capped, and a clock (lib/validation/run.ts starts it and ends it). Plain
// JavaScript loaded from its path, so the same file runs under the production build, tsx and the
// tests; ESLint and ajv come from node_modules.
//
// One job at a time: { op: "check", lint: [{ path, content }], entities: [{ path, content }] }
// answers { ok: true, value: { issues } }, each issue { detectorId, severity, message, path, line },
// or { ok: false, reason: "unreadable" } when a checker itself failed.

const LINT_RULES = {
  "react-hooks/rules-of-hooks": "error",
  "react-hooks/exhaustive-deps": "warn",
  "no-undef": "error",
};

let linting;
async function linter() {
  linting ??= (async () => {
    const [{ Linter }, reactHooks] = await Promise.all([
      import("eslint"),
      import("eslint-plugin-react-hooks"),
    ]);
    const plugin = reactHooks.default ?? reactHooks;
    const config = [
      {
        files: ["**/*.js", "**/*.jsx", "**/*.mjs"],
        languageOptions: {
          ecmaVersion: "latest",
          sourceType: "module",
          parserOptions: { ecmaFeatures: { jsx: true } },
          globals: Object.fromEntries(BROWSER_GLOBALS.map((name) => [name, "readonly"])),
        },
        plugins: { "react-hooks": plugin },
        rules: LINT_RULES,
        // An app's own directives are kept (`// eslint-disable-next-line react-hooks/exhaustive-deps`
        // is a choice); one that is unused, or names a rule of a plugin we do not load, is no issue.
        linterOptions: { reportUnusedDisableDirectives: "off" },
      },
    ];
    // No configuration file is read from the disk: this one, in code, is the whole of it.
    return { linter: new Linter({ configType: "flat", cwd: "/" }), config };
  })();
  return linting;
}

async function lintFiles(files) {
  const { linter: l, config } = await linter();
  const issues = [];
  for (const file of files) {
    for (const m of l.verify(file.content, config, { filename: file.path })) {
      // Only our rules and the parser speak ("Definition for rule 'react/...' was not found" does not).
      if (!m.fatal && !(m.ruleId in LINT_RULES)) continue;
      issues.push({
        detectorId: m.fatal ? "lint-syntax" : (m.ruleId ?? "lint").replace(/^react-hooks\//, ""),
        severity: m.severity === 2 ? "error" : "warning",
        message: m.message,
        path: file.path,
        line: m.line ?? 1,
      });
    }
  }
  return issues;
}

// --- entity schemas

// Where each line of the last text asked about starts: a schema's every key asks for its line.
let lineTable = { text: null, starts: [0] };

/** The line of a character offset (a binary search over the text's line starts). */
function lineAt(text, offset) {
  if (lineTable.text !== text) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
    lineTable = { text, starts };
  }
  const { starts } = lineTable;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Where each JSON pointer of a (valid) JSON text begins: "/properties/title/type" -> the line of
 * its key. A small reader of its own, as JSON.parse tells no positions.
 */
function pointerLines(text) {
  const lines = new Map();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = () => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
  const value = (pointer) => {
    ws();
    if (text[i] === "{") {
      i++;
      ws();
      while (text[i] !== "}" && i < text.length) {
        ws();
        const at = i;
        const key = str();
        const p = `${pointer}/${esc(key)}`;
        lines.set(p, lineAt(text, at));
        ws();
        i++; // :
        value(p);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (text[i] === "[") {
      i++;
      let n = 0;
      ws();
      while (text[i] !== "]" && i < text.length) {
        ws();
        const p = `${pointer}/${n++}`;
        lines.set(p, lineAt(text, i));
        value(p);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (text[i] === '"') {
      str();
    } else {
      while (i < text.length && /[^\s,\]}]/.test(text[i])) i++;
    }
  };
  value("");
  return lines;
}

/** The line a pointer (or, failing that, the nearest pointer above it) starts on. */
function lineOfPointer(lines, pointer) {
  for (let p = pointer; p; p = p.slice(0, p.lastIndexOf("/"))) {
    const line = lines.get(p);
    if (line) return line;
  }
  return 1;
}

/** JSON.parse's complaint and the line it is about. */
function jsonProblem(text, err) {
  const message = err instanceof Error ? err.message : String(err);
  const at = /at position (\d+)/.exec(message);
  const line = at ? lineAt(text, Number(at[1])) : text.split("\n").length;
  return { message, line };
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The line ajv's compile error is about: `unknown format "day"` -> the line of `"format": "day"`,
 * `unknown keyword: "requird"` -> the line of that key.
 */
function compileErrorLine(text, message) {
  const format = /unknown format "([^"]+)"/.exec(message)?.[1];
  const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
  const pattern = format
    ? new RegExp(`"format"\\s*:\\s*"${escapeRegExp(format)}"`)
    : keyword
      ? new RegExp(`"${escapeRegExp(keyword)}"\\s*:`)
      : null;
  const at = pattern ? (pattern.exec(text)?.index ?? -1) : -1;
  return at >= 0 ? lineAt(text, at) : 1;
}

let ajvModules;
async function newAjv() {
  ajvModules ??= Promise.all([import("ajv"), import("ajv-formats")]);
  const [ajv, formats] = await ajvModules;
  const Ajv = ajv.Ajv ?? ajv.default;
  const instance = new Ajv({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    allErrors: true,
    logger: false,
  });
  (formats.default ?? formats)(instance);
  return instance;
}

/** Keys of a schema that are ours, not JSON Schema's ("x-accessControl"), to be known to ajv. */
function extensionKeywords(node, found = new Set()) {
  if (Array.isArray(node)) for (const v of node) extensionKeywords(v, found);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("x-")) found.add(k);
      extensionKeywords(v, found);
    }
  }
  return found;
}

async function checkEntity(file) {
  const issue = (message, line) => ({
    detectorId: "entity-schema",
    severity: "error",
    message,
    path: file.path,
    line,
  });
  let schema;
  try {
    schema = JSON.parse(file.content);
  } catch (err) {
    const { message, line } = jsonProblem(file.content, err);
    return [issue(`Not valid JSON: ${message}`, line)];
  }
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
    return [issue("An entity schema must be a JSON object", 1)];
  }
  const lines = pointerLines(file.content);
  const ajv = await newAjv();
  for (const k of extensionKeywords(schema)) ajv.addKeyword(k);
  // The draft ajv knows: a model's "$schema" or "$id" would make it refuse or register the schema.
  const { $schema: _s, $id: _i, ...rest } = schema;
  if (!ajv.validateSchema(rest)) {
    // One problem per place: ajv also lists the alternatives a wrong value failed ("must be array").
    const seen = new Set();
    return (ajv.errors ?? [])
      .filter((e) => !seen.has(e.instancePath) && seen.add(e.instancePath))
      .slice(0, 5)
      .map((e) => {
        const where = e.instancePath || "";
        const allowed = e.params?.allowedValues ? `: ${e.params.allowedValues.join(", ")}` : "";
        return issue(`${where || "schema"} ${e.message}${allowed}`, lineOfPointer(lines, where));
      });
  }
  try {
    ajv.compile(rest);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [issue(message, compileErrorLine(file.content, message))];
  }
  return [];
}

parentPort.on("message", async (job) => {
  if (job.op !== "check") return;
  try {
    const issues = await lintFiles(job.lint ?? []);
    for (const file of job.entities ?? []) issues.push(...(await checkEntity(file)));
    parentPort.postMessage({ ok: true, value: { issues } });
  } catch {
    parentPort.postMessage({ ok: false, reason: "unreadable" });
  }
});
