// Every user-visible string of the product, by key. The spec's wording is authoritative:
// strings quoted in the spec are copied here word for word, and tests assert against this file.
// Split by domain, one file each; every key is unique across them (tests/unit/messages-catalogue.test.ts).
import { aiMessages } from "./ai";
import { analyticsMessages } from "./analytics";
import { appDataMessages } from "./app-data";
import { authMessages } from "./auth";
import { brandingMessages } from "./branding";
import { codeMessages } from "./code";
import { dataSourcesMessages } from "./data-sources";
import { editorMessages } from "./editor";
import { fieldsMessages } from "./fields";
import { functionsMessages } from "./functions";
import { homeMessages } from "./home";
import { membershipsMessages } from "./memberships";
import { plansMessages } from "./plans";
import { publicAppMessages } from "./public-app";
import { runsMessages } from "./runs";
import { secretsMessages } from "./secrets";
import { shellMessages } from "./shell";
import { spaceMessages } from "./space";

export const messages = {
  ...authMessages,
  ...dataSourcesMessages,
  ...homeMessages,
  ...aiMessages,
  ...runsMessages,
  ...shellMessages,
  ...editorMessages,
  ...membershipsMessages,
  ...fieldsMessages,
  ...publicAppMessages,
  ...brandingMessages,
  ...plansMessages,
  ...spaceMessages,
  ...analyticsMessages,
  ...appDataMessages,
  ...secretsMessages,
  ...functionsMessages,
  ...codeMessages,
} as const;

export type MessageKey = keyof typeof messages;
