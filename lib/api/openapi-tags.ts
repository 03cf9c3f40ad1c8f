// What each group of operations of the API document (/api/openapi.json) is about. A tag is the
// first folder under /api; a tag without a line here fails tests/integration/openapi.test.ts.
export const TAG_DESCRIPTIONS: Record<string, string> = {
  admin: "Administration of builder accounts: their plans and admin flags (admins only).",
  app: "The plan catalogue a builder may buy for an app.",
  apps: "Apps of a builder: create, edit, publish, tools, images, runs, analytics, paid memberships, and the chat, versions and data of apps built by chat.",
  auth: "The site's sign-in, handled by Auth.js: API clients use the identity routes instead.",
  billing: "A builder's plan: Stripe checkout.",
  builder: "Helpers of the editor, e.g. generating a field or a tool with the model.",
  csv: "The CSV import of an app's data: the model's mapping of a file's columns to an entity's fields.",
  context:
    "An app's data sources: add text, files, web pages and connector items, rename, sync, delete, and follow their status.",
  dev: "Development helpers, absent in production (404 there).",
  files: "Uploaded images, served publicly by their key.",
  identity:
    "Users and sessions: sign up, sign in (bearer tokens), passwords, email addresses and the verification and magic links.",
  integrations: "Connections to Notion and Google Drive: authorize, callback, listing files, disconnecting.",
  live_api:
    "The account of the signed-in user and the end-user features of published apps: magic links, one-time codes, memories.",
  models: "The models a builder may choose for a tool.",
  openapi: "This document.",
  tools: "Data items used by an app's tools.",
  webhooks: "Calls from outside services (Stripe), authorized by their signature.",
};
