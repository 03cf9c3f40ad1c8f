// The code that runs a space app inside its preview frame, and the page shown instead when the
// build failed. Kept as source text, not as a module of ours: it is compiled by the preview's own
// build (lib/space/preview/build.ts) into every app's bundle, against the preview's React, and
// must be there at run time whatever Next bundles. Plain JavaScript, no JSX, so it needs no loader
// but esbuild's. Its text is part of the cache key of every bundle (build.ts).
//
// What it does: a hash router over the app's pages (`#/PageName`), each page wrapped in the
// app's layout (`Layout({ children, currentPageName })`) and an error boundary; every error it
// sees (render errors, window errors, unhandled rejections, a page without a default export)
// becomes an app error {title, details, componentName} posted to the parent, de-duplicated, as
// the full list each time it grows.

/** The specifier of the runtime inside a build. */
export const RUNTIME_SPECIFIER = "preview:runtime";

/** The global the document sets before the bundle runs: the texts and the default page. */
export const CONFIG_GLOBAL = "__spacePreviewConfig";

export const PREVIEW_RUNTIME_SOURCE = String.raw`
import { Component, createElement as h, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";

const config = globalThis.${CONFIG_GLOBAL} || { text: {} };
const text = config.text || {};
const MAX_ISSUES = 50;
const issues = [];
const seen = new Set();

function post(message) {
  try {
    window.parent.postMessage(message, "*");
  } catch (_) {
    // A parent that cannot receive messages: the preview still runs.
  }
}

function clip(value, n) {
  const s = String(value == null ? "" : value);
  return s.length > n ? s.slice(0, n) + "…" : s;
}

function fill(template, vars) {
  return String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

function report(issue) {
  const key = issue.title + "\u0000" + issue.details + "\u0000" + issue.componentName;
  if (seen.has(key) || issues.length >= MAX_ISSUES) return;
  seen.add(key);
  issues.push(issue);
  post({ type: "space-preview:issues", issues: issues.slice() });
}

const RUNTIME_PARTS = new Set(["PreviewApp", "PageHost", "Boundary", "Suspense", "StrictMode"]);

// React's component stack names the component that failed first ("at Home (...)").
function componentFromStack(stack) {
  const re = /^\s*at ([A-Za-z_$][\w$]*)/gm;
  let m;
  while ((m = re.exec(stack || ""))) {
    if (!RUNTIME_PARTS.has(m[1])) return m[1];
  }
  return null;
}

function runtimeIssue(error, componentName, extra) {
  const err = error instanceof Error ? error : null;
  const message = err ? err.message || err.name : String(error);
  const details = [err && err.stack ? err.stack : message, extra || ""].filter(Boolean).join("\n");
  return {
    title: clip(message.split("\n")[0] || text.runtimeError, 300),
    details: clip(details, 4000),
    componentName: componentName || null,
    source: "runtime",
  };
}

const pages = new Map();
let defaultPage = null;
let currentPage = null;

function pageFromHash() {
  const raw = decodeURIComponent(location.hash.replace(/^#\/?/, "")).split("?")[0].replace(/\/+$/, "");
  if (raw === "") return defaultPage;
  if (pages.has(raw)) return raw;
  for (const name of pages.keys()) if (name.toLowerCase() === raw.toLowerCase()) return name;
  return raw;
}

// Links written for a real server ("/About") stay inside the preview: the frame never leaves
// for our own paths.
function onClick(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const a = event.target && event.target.closest ? event.target.closest("a[href]") : null;
  if (!a || (a.target && a.target !== "_self")) return;
  const href = a.getAttribute("href") || "";
  if (!href.startsWith("/") || href.startsWith("//")) return;
  event.preventDefault();
  location.hash = "#" + href;
}

const box = {
  fontFamily: "ui-sans-serif, system-ui, sans-serif",
  margin: "16px",
  padding: "12px 16px",
  border: "1px solid #fca5a5",
  borderRadius: "8px",
  background: "#fef2f2",
  color: "#7f1d1d",
};
const pre = { whiteSpace: "pre-wrap", fontSize: "12px", margin: "8px 0 0", overflow: "auto", maxHeight: "40vh" };

function ErrorBox(props) {
  return h(
    "div",
    { role: "alert", style: box },
    h("strong", null, props.title),
    props.details ? h("pre", { style: pre }, props.details) : null,
  );
}

function Notice(props) {
  return h(
    "div",
    { style: { fontFamily: "ui-sans-serif, system-ui, sans-serif", padding: "32px", color: "#475569" } },
    props.children,
  );
}

class Boundary extends Component {
  constructor(props) {
    super(props);
    this.state = { error: null };
  }
  static getDerivedStateFromError(error) {
    return { error };
  }
  componentDidCatch(error, info) {
    const stack = info && info.componentStack;
    report(runtimeIssue(error, componentFromStack(stack) || this.props.name, stack));
  }
  render() {
    if (this.state.error) {
      const e = this.state.error;
      return h(ErrorBox, { title: text.runtimeError, details: e && e.message ? e.message : String(e) });
    }
    return this.props.children;
  }
}

function PageHost(props) {
  const entry = pages.get(props.name);
  const [state, setState] = useState({ name: null, Page: null, failed: false });
  useEffect(() => {
    let live = true;
    if (!entry) return undefined;
    entry.load().then(
      (mod) => {
        if (!live) return;
        const Page = mod && typeof mod.default === "function" ? mod.default : null;
        if (!Page) {
          report({
            title: fill(text.noDefaultExport, { path: entry.path }),
            details: entry.path,
            componentName: props.name,
            source: "runtime",
          });
        }
        setState({ name: props.name, Page, failed: !Page });
      },
      (error) => {
        if (!live) return;
        report(runtimeIssue(error, props.name));
        setState({ name: props.name, Page: null, failed: true });
      },
    );
    return () => {
      live = false;
    };
  }, [props.name, entry]);
  useEffect(() => {
    if (state.name === props.name && state.Page) post({ type: "space-preview:ready", page: props.name });
  }, [state, props.name]);
  if (!entry) return h(Notice, null, fill(text.pageNotFound, { page: props.name }));
  if (state.name !== props.name) return null;
  if (state.failed) return h(ErrorBox, { title: text.runtimeError, details: entry.path });
  return h(Boundary, { name: props.name }, h(state.Page, null));
}

function PreviewApp(props) {
  const [name, setName] = useState(pageFromHash);
  useEffect(() => {
    const onHash = () => setName(pageFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    currentPage = name;
  }, [name]);
  if (pages.size === 0) {
    post({ type: "space-preview:ready", page: null });
    return h(Notice, null, text.noPages);
  }
  const page = h(PageHost, { key: name, name });
  const Layout = props.layout;
  if (!Layout) return page;
  return h(Boundary, { name: "Layout" }, h(Layout, { currentPageName: name }, page));
}

export function startPreview(app) {
  for (const p of app.pages) pages.set(p.name, p);
  defaultPage = app.defaultPage;
  window.addEventListener("error", (event) => {
    report(runtimeIssue(event.error || event.message, currentPage));
  });
  window.addEventListener("unhandledrejection", (event) => {
    report(runtimeIssue(event.reason, currentPage));
  });
  document.addEventListener("click", onClick);
  const layout = app.layout && typeof app.layout.default === "function" ? app.layout.default : null;
  const root = createRoot(document.getElementById("root"), {
    onUncaughtError: (error, info) => report(runtimeIssue(error, componentFromStack(info && info.componentStack))),
  });
  root.render(h(PreviewApp, { layout }));
}
`;

/**
 * The page of a version whose build failed: its errors, listed without React, and posted to the
 * parent like the runtime's. Reads the build's issues from the config global.
 */
export const BUILD_FAILED_SOURCE = `(function () {
  var config = globalThis.${CONFIG_GLOBAL} || { text: {}, buildIssues: [] };
  var issues = config.buildIssues || [];
  var root = document.getElementById("root");
  var wrap = document.createElement("div");
  wrap.setAttribute("role", "alert");
  wrap.style.cssText = "font-family:ui-sans-serif,system-ui,sans-serif;margin:16px;padding:12px 16px;border:1px solid #fca5a5;border-radius:8px;background:#fef2f2;color:#7f1d1d";
  var head = document.createElement("strong");
  head.textContent = config.text.buildFailed || "";
  wrap.appendChild(head);
  issues.forEach(function (issue) {
    var title = document.createElement("p");
    title.style.cssText = "margin:12px 0 0;font-weight:600";
    title.textContent = issue.componentName ? issue.componentName + ": " + issue.title : issue.title;
    var details = document.createElement("pre");
    details.style.cssText = "white-space:pre-wrap;font-size:12px;margin:4px 0 0";
    details.textContent = issue.details;
    wrap.appendChild(title);
    wrap.appendChild(details);
  });
  root.appendChild(wrap);
  try {
    window.parent.postMessage({ type: "space-preview:issues", issues: issues }, "*");
  } catch (_) {}
})();`;
