import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { aiMessages } from "@/lib/messages/ai";
import { analyticsMessages } from "@/lib/messages/analytics";
import { appDataMessages } from "@/lib/messages/app-data";
import { authMessages } from "@/lib/messages/auth";
import { brandingMessages } from "@/lib/messages/branding";
import { codeMessages } from "@/lib/messages/code";
import { dataSourcesMessages } from "@/lib/messages/data-sources";
import { editorMessages } from "@/lib/messages/editor";
import { fieldsMessages } from "@/lib/messages/fields";
import { functionsMessages } from "@/lib/messages/functions";
import { homeMessages } from "@/lib/messages/home";
import { membershipsMessages } from "@/lib/messages/memberships";
import { plansMessages } from "@/lib/messages/plans";
import { publicAppMessages } from "@/lib/messages/public-app";
import { runsMessages } from "@/lib/messages/runs";
import { secretsMessages } from "@/lib/messages/secrets";
import { shellMessages } from "@/lib/messages/shell";
import { spaceMessages } from "@/lib/messages/space";

// The catalogue is one object spread together from a file per domain: a key in two files would
// silently take the later one's text.
const parts = {
  aiMessages,
  analyticsMessages,
  appDataMessages,
  authMessages,
  brandingMessages,
  codeMessages,
  dataSourcesMessages,
  editorMessages,
  fieldsMessages,
  functionsMessages,
  homeMessages,
  membershipsMessages,
  plansMessages,
  publicAppMessages,
  runsMessages,
  secretsMessages,
  shellMessages,
  spaceMessages,
};

describe("the message catalogue", () => {
  it("holds every domain's messages, each key in one domain only", () => {
    const owners = new Map<string, string[]>();
    for (const [part, entries] of Object.entries(parts)) {
      for (const key of Object.keys(entries)) owners.set(key, [...(owners.get(key) ?? []), part]);
    }
    expect([...owners].filter(([, in_]) => in_.length > 1)).toEqual([]);
    expect(Object.keys(messages).sort()).toEqual([...owners.keys()].sort());
  });
});

// A client component that imports the catalogue (lib/messages/index.ts) ships every domain's
// messages to the browser. The components of the public pages (a published app, its sign-in)
// import the domain files they need, so those pages ship only their own words.
const PUBLIC_PAGE_FOLDERS = [
  "components/public-app",
  "components/auth",
  "components/uploads",
  "components/runs",
  "components/theme",
  "components/ui",
];

function sourcesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe("the public pages' components", () => {
  it("import their messages' domain files, not the whole catalogue", () => {
    const whole = PUBLIC_PAGE_FOLDERS.flatMap(sourcesUnder).filter((file) =>
      /from "@\/lib\/messages"/.test(fs.readFileSync(file, "utf8")),
    );
    expect(whole).toEqual([]);
  });
});
