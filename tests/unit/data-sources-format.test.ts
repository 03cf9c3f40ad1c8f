import { describe, expect, it } from "vitest";
import {
  canSyncAgain,
  checkContextFile,
  formatBytes,
  replaceKind,
  sizeLabel,
  sourceNote,
  statusDisplay,
} from "@/components/editor/data-sources/item-format";
import { websiteUrl } from "@/components/editor/data-sources/website-source-form";
import { messages } from "@/lib/messages";

describe("statusDisplay", () => {
  it("shows every status in the spec's words, and Unknown otherwise", () => {
    const label = (s: string) => statusDisplay(s).label;
    expect(label("unsynced")).toBe("Pending");
    expect(label("pending")).toBe("Pending");
    expect(label("running")).toBe("Syncing...");
    expect(label("synced")).toBe("Synced");
    expect(label("error")).toBe("Error");
    expect(label("usage_limit_reached")).toBe("Usage limit reached");
    expect(label("queued")).toBe("Unknown");
    expect(label("")).toBe("Unknown");
  });
});

describe("what an item offers", () => {
  it("replaces a text with a text and a file with a file of its kind; connectors sync again instead", () => {
    expect(replaceKind({ source: "local files", type: "txt" })).toBe("text");
    expect(replaceKind({ source: "local files", type: "csv" })).toBe("csv");
    expect(replaceKind({ source: "local files", type: "pdf" })).toBe("doc");
    expect(replaceKind({ source: "local files", type: "doc" })).toBe("doc");
    expect(replaceKind({ source: "notion", type: "notion page" })).toBeNull();
    expect(canSyncAgain("web scraper")).toBe(true);
    expect(canSyncAgain("notion")).toBe(true);
    expect(canSyncAgain("google drive")).toBe(true);
    expect(canSyncAgain("local files")).toBe(false);
    expect(sourceNote({ source: "google drive", type: "pdf" })).toBe("Google Drive");
    expect(sourceNote({ source: "google drive", type: "google doc" })).toBeNull();
    expect(sourceNote({ source: "local files", type: "pdf" })).toBeNull();
  });
});

describe("sizes", () => {
  it("counts a text in characters and a file in bytes, and shows nothing before there is anything", () => {
    expect(sizeLabel({ source: "local files", type: "txt", size: 12_345 })).toBe("12,345 characters");
    expect(sizeLabel({ source: "local files", type: "csv", size: 2048 })).toBe("2 KB");
    expect(sizeLabel({ source: "web scraper", type: "web page", size: 0 })).toBeNull();
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3 MB");
  });
});

describe("checkContextFile (before sending)", () => {
  const MB = 1024 * 1024;
  it("takes the kind's types up to the plan's size, with the spec's size message", () => {
    expect(checkContextFile({ name: "list.CSV", size: 10 }, "csv", 10 * MB)).toBeNull();
    expect(checkContextFile({ name: "a.pdf", size: 10 * MB }, "doc", 10 * MB)).toBeNull();
    expect(checkContextFile({ name: "a.docx", size: 1 }, "doc", 10 * MB)).toBeNull();
    expect(checkContextFile({ name: "a.doc", size: 1 }, "doc", 10 * MB)).toBeNull();
    expect(checkContextFile({ name: "a.pdf", size: 10 * MB + 1 }, "doc", 10 * MB)).toBe(
      "Failed to upload context, file size is too big (max 10 MB)",
    );
    expect(checkContextFile({ name: "a.pdf", size: 1 }, "csv", 10 * MB)).toBe(messages.contextFileType);
    expect(checkContextFile({ name: "notes.txt", size: 1 }, "doc", 10 * MB)).toBe(messages.contextFileType);
  });
});

describe("websiteUrl", () => {
  it("takes http and https addresses only", () => {
    expect(websiteUrl(" https://example.com ")).toBe("https://example.com/");
    expect(websiteUrl("http://example.com/docs?a=1")).toBe("http://example.com/docs?a=1");
    expect(websiteUrl("ftp://example.com")).toBeNull();
    expect(websiteUrl("javascript:alert(1)")).toBeNull();
    expect(websiteUrl("example.com")).toBeNull();
    expect(websiteUrl("")).toBeNull();
  });
});
