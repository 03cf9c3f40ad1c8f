import "server-only";
import crypto from "node:crypto";
import * as esbuild from "esbuild";

// The packages a preview may import, built once per server process from our own node_modules into
// one script that every preview document carries before the app's own bundle. An app's build then
// only compiles its files (React is not parsed again for each version), and every preview runs the
// React we ship, never one fetched from anywhere.

/** What an app may import by bare name: each maps to a field of the vendor global. */
export const VENDOR_MODULES: Readonly<Record<string, string>> = {
  react: "react",
  "react/jsx-runtime": "jsxRuntime",
  "react-dom": "reactDom",
  "react-dom/client": "reactDomClient",
};

/** The global the vendor script fills and the app's bundle reads. */
export const VENDOR_GLOBAL = "__spacePreviewVendor";

const ENTRY = `
import * as react from "react";
import * as jsxRuntime from "react/jsx-runtime";
import * as reactDom from "react-dom";
import * as reactDomClient from "react-dom/client";
globalThis.${VENDOR_GLOBAL} = Object.freeze({ react, jsxRuntime, reactDom, reactDomClient });
`;

export type Vendor = { js: string; hash: string };

let vendor: Promise<Vendor> | null = null;

/** The vendor script (minified, production React), built on first use and kept. */
export function previewVendor(): Promise<Vendor> {
  vendor ??= buildVendor().catch((err) => {
    vendor = null; // a failed build (a missing package) is tried again on the next preview
    throw err;
  });
  return vendor;
}

async function buildVendor(): Promise<Vendor> {
  const result = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: "js", sourcefile: "preview-vendor.js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const js = result.outputFiles[0]!.text;
  return { js, hash: crypto.createHash("sha256").update(js).digest("hex") };
}

/** The CommonJS module that stands for a vendor package inside an app's bundle. */
export function vendorShim(field: string): string {
  return `module.exports = globalThis.${VENDOR_GLOBAL}.${field};\n`;
}
