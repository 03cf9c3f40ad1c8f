import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as photosRoute from "@/app/api/apps/[appId]/run/photos/route";
import * as memoriesRoute from "@/app/api/live_api/user/memories/current/route";
import { db } from "@/db/client";
import { insertTool } from "@/db/queries/apps";
import { findRun } from "@/db/queries/runs";
import { toolRuns, tools, uploads } from "@/db/schema";
import type { CustomField } from "@/lib/apps/schemas";
import { RUN_PHOTOS_PER_SUBJECT } from "@/lib/constants";
import { pruneExpired } from "@/lib/jobs/prune";
import { messages } from "@/lib/messages";
import { RUN_ID_HEADER } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";
import { createBuilder, createEndUser, fromIp, randomIp } from "../support/factories";
import { call } from "../support/http";
import { BMP, GIF, JPEG, NOT_IMAGES, PNG, pngOfSize, SVG, WEBP } from "../support/images";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, newApp, run } from "../support/runs";
import { fetchFile, type Handler, send, upload } from "../support/uploads-client";

// Photos for runs: an end user uploads a photo for a tool's photo field, and the run
// sends the photo itself to the model as an image part of the user message. The real routes,
// the real AI SDK client over HTTP to the local OpenAI-compatible server, the real database,
// files on disk in a directory of this file's own. lib/env reads the environment once: set first.

const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "run-photos-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(async () => {
  await server.close();
  fs.rmSync(STORAGE_DIR, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  server.setResponder(null);
});

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const field = (f: Partial<CustomField> & Pick<CustomField, "name">) => ({
  label: "",
  type: "text",
  options: [],
  ...f,
});

/** An outfit rater: a photo field used by its tag, and the main input. */
const outfitContent = (extra: Partial<CustomField> = {}) => ({
  gptPrompt: "Rate the outfit in [outfit]. Be kind.",
  fields: [field({ name: "outfit", label: "Your outfit", type: "photo", required: true, ...extra })],
});

const photoApp = (owner: Builder, opts: Parameters<typeof newApp>[1] = {}) =>
  newApp(owner, { content: outfitContent(), ...opts });

/** POST /api/apps/{appId}/run/photos with `body` as the photo. */
const uploadPhoto = (
  appId: string,
  body: BodyInit | Uint8Array,
  o: { token?: string; toolId?: string; headers?: Record<string, string> } = {},
) =>
  send(photosRoute.POST as Handler, {
    method: "POST",
    path: `/api/apps/${appId}/run/photos${o.toolId ? `?toolId=${o.toolId}` : ""}`,
    params: { appId },
    token: o.token,
    body,
    headers: { "content-type": "application/octet-stream", ...o.headers },
  });

const error = (code: string, message: string) => ({ error: { code, message } });
const photoInvalid = (label: string) => ({
  error: { code: "PHOTO_INVALID", message: fillTemplate(messages.runPhotoInvalid, { label }) },
  field: "outfit",
});

describe("POST /api/apps/{appId}/run/photos: the upload", () => {
  it("stores a photo under the app owner's prefix in a folder of its own, and answers its id and file_url", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    const res = await uploadPhoto(app.id, PNG, { headers: { "content-type": "text/plain" } });

    expect(res.status).toBe(200);
    const { id, file_url } = res.json!;
    const key = `accounts/${owner.account.accountId}/apps/${app.id}/run-photos/${id}.png`;
    expect(res.json).toEqual({ id, file_url: `/api/files/${key}?v=${id}` });
    expect(fs.readFileSync(path.join(STORAGE_DIR, key))).toEqual(Buffer.from(PNG));
    const [row] = await db().select().from(uploads).where(eq(uploads.id, id));
    expect(row).toMatchObject({
      appId: app.id,
      accountId: owner.account.accountId,
      kind: "run_photo",
      toolId: null,
      key,
      contentType: "image/png",
      size: PNG.byteLength,
    });
    // Served back as what it is, like the app's other images.
    const served = await fetchFile(file_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.bytes).toEqual(Buffer.from(PNG));
    // An end user's photo: never kept by a shared cache.
    expect(served.headers.get("cache-control")).toMatch(/^private,/);
  });

  it("takes JPEG, PNG, WebP and GIF by their bytes; other images and anything else are refused", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    for (const [bytes, ext] of [
      [JPEG, "jpg"],
      [WEBP, "webp"],
      [GIF, "gif"],
    ] as const) {
      const res = await uploadPhoto(app.id, bytes);
      expect(res.status).toBe(200);
      expect(res.json!.file_url).toMatch(new RegExp(`/run-photos/${res.json!.id}\\.${ext}\\?v=`));
    }
    for (const bytes of [SVG, BMP]) {
      const res = await uploadPhoto(app.id, bytes);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(error("upload/unsupported-type", messages.runPhotoType));
    }
    for (const bytes of Object.values(NOT_IMAGES)) {
      const res = await uploadPhoto(app.id, bytes);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(error("upload/not-an-image", messages.runPhotoType));
    }
    const rows = await db()
      .select()
      .from(uploads)
      .where(and(eq(uploads.appId, app.id), eq(uploads.kind, "run_photo")));
    expect(rows).toHaveLength(3);
  });

  it("refuses 10,000,000 bytes or more with 413 'File size to large', declared or streamed", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    const declared = await uploadPhoto(app.id, pngOfSize(10_000_000));
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual(error("PAYLOAD_TOO_LARGE", messages.fileTooLarge));

    // A chunked body that declares no length is cut off once it passes the cap.
    const chunk = pngOfSize(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 11) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await uploadPhoto(app.id, stream);
    expect(streamed.status).toBe(413);
    expect(streamed.json).toEqual(error("PAYLOAD_TOO_LARGE", messages.fileTooLarge));

    const largest = await uploadPhoto(app.id, pngOfSize(9_999_999));
    expect(largest.status).toBe(200);
  });

  it("follows the rules of running the tool: drafts for their builder, sign-up apps for their own end users", async () => {
    const owner = await createBuilder();
    const stranger = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    const draft = await photoApp(owner, { status: "draft" });
    const draftUser = await createEndUser(draft.id);
    for (const token of [undefined, stranger.token, draftUser.token]) {
      const res = await uploadPhoto(draft.id, PNG, { token });
      expect(res.status).toBe(404);
      expect(res.json).toEqual(error("NOT_FOUND", messages.appNotFound));
    }
    for (const token of [owner.token, admin.token]) {
      expect((await uploadPhoto(draft.id, PNG, { token })).status).toBe(200);
    }

    // App A asks for sign-in: a visitor, and app B's end user (nobody in app A), are refused.
    const appA = await photoApp(owner, { settings: { isSignupEnabled: true } });
    const appB = await photoApp(stranger);
    const userA = await createEndUser(appA.id);
    const userB = await createEndUser(appB.id);
    for (const token of [undefined, userB.token]) {
      const res = await uploadPhoto(appA.id, PNG, { token });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(error("SIGN_IN_REQUIRED", messages.runSignInRequired));
    }
    expect((await uploadPhoto(appA.id, PNG, { token: userA.token })).status).toBe(200);
    const stored = await db()
      .select()
      .from(uploads)
      .where(and(eq(uploads.appId, appA.id), eq(uploads.kind, "run_photo")));
    expect(stored).toHaveLength(1);

    // Nothing is stored for an app that does not exist, or an id that is none.
    expect((await uploadPhoto(crypto.randomUUID(), PNG)).status).toBe(404);
    expect((await uploadPhoto("not-an-id", PNG)).status).toBe(400);
  });

  it("takes photos only for a tool that asks for one, and a generated app's tool by its id", async () => {
    const owner = await createBuilder();
    const plain = await newApp(owner, { content: { gptPrompt: "Say hello." } });
    const res = await uploadPhoto(plain.id, PNG);
    expect(res.status).toBe(400);
    expect(res.json).toEqual(error("NO_PHOTO_FIELD", messages.runPhotoNotAsked));

    const gen = await newApp(owner, { type: "generated" });
    const tool = await insertTool({
      appId: gen.id,
      title: "Outfits",
      path: "outfits",
      position: 0,
      content: outfitContent(),
    });
    // A draft tool is its builder's alone, as for runs.
    expect((await uploadPhoto(gen.id, PNG, { toolId: tool.id })).status).toBe(404);
    await db().update(tools).set({ status: "active" }).where(eq(tools.id, tool.id));
    expect((await uploadPhoto(gen.id, PNG)).status).toBe(404);
    const ok = await uploadPhoto(gen.id, PNG, { toolId: tool.id });
    expect(ok.status).toBe(200);
    const [row] = await db().select().from(uploads).where(eq(uploads.id, ok.json!.id));
    expect(row!.toolId).toBe(tool.id);
  });

  it(`lets one uploader store ${RUN_PHOTOS_PER_SUBJECT} photos in its window, however many it sends at once`, async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner, { settings: { isSignupEnabled: true } });
    const user = await createEndUser(app.id);
    const burst = RUN_PHOTOS_PER_SUBJECT + 10;

    const answers = await Promise.all(
      Array.from({ length: burst }, () => uploadPhoto(app.id, PNG, { token: user.token })),
    );

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(RUN_PHOTOS_PER_SUBJECT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(answers.find((a) => a.status === 429)!.json).toEqual(
      error("RATE_LIMITED", messages.tooManyRequests),
    );
    const rows = await db()
      .select()
      .from(uploads)
      .where(and(eq(uploads.appId, app.id), eq(uploads.kind, "run_photo")));
    expect(rows).toHaveLength(RUN_PHOTOS_PER_SUBJECT);

    // Per uploader: another end user of the app, and a visitor's address, have points of their own.
    const other = await createEndUser(app.id);
    expect((await uploadPhoto(app.id, PNG, { token: other.token })).status).toBe(200);
    const open = await photoApp(owner);
    const ip = randomIp();
    const fromHere = await Promise.all(
      Array.from({ length: burst }, () => uploadPhoto(open.id, PNG, { headers: fromIp(ip) })),
    );
    expect(fromHere.filter((a) => a.status === 200)).toHaveLength(RUN_PHOTOS_PER_SUBJECT);
    expect((await uploadPhoto(open.id, PNG)).status).toBe(200);
  });
});

describe("a run with a photo", () => {
  it("sends the stored photo to the model as an image part of the user message, naming its field", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    const photo = await uploadPhoto(app.id, PNG);

    const res = await run(app.id, {
      inputs: { input: "Is this good for a wedding?", outfit: photo.json!.file_url },
    });

    expect(res.status).toBe(200);
    const chat = server.chats[0]!;
    const system = chat.messages.find((m) => m.role === "system")!.content;
    expect(system).toContain('Rate the outfit in the photo "Your outfit" (attached). Be kind.');
    expect(system).not.toContain("/api/files/");
    const user = chat.messages.find((m) => m.role === "user")!;
    expect(user.content).toBe('Is this good for a wedding?\n\nThe photo "Your outfit":');
    expect(user.images).toEqual([
      {
        url: expect.stringMatching(/^data:image\/png;base64,/),
        mediaType: "image/png",
        bytes: PNG.byteLength,
      },
    ]);
    // The bytes themselves, never our address: the model server has nothing to fetch.
    expect(Buffer.from(user.images![0]!.url.split(",")[1]!, "base64")).toEqual(Buffer.from(PNG));
    // The parts as the provider sent them: text, the caption, then the image.
    const sent = (chat.body.messages as { role: string; content: unknown }[]).find((m) => m.role === "user")!;
    expect((sent.content as { type: string }[]).map((p) => p.type)).toEqual(["text", "text", "image_url"]);

    // The run keeps the photo's address among its inputs.
    const recorded = await eventually(
      () => findRun(res.headers.get(RUN_ID_HEADER)!),
      (r) => r?.status === "success",
    );
    expect(recorded!.inputs).toMatchObject({ outfit: photo.json!.file_url });
  });

  it("the demo model says which image it received", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    const photo = await uploadPhoto(app.id, JPEG);
    server.setResponder(demoResponder);
    const res = await run(app.id, { inputs: { outfit: photo.json!.file_url } });
    expect(res.stream!.answer).toContain(`I received an image (image/jpeg, ${JPEG.byteLength} bytes).`);
  });

  it("refuses anything but a photo uploaded for this app, naming the field (400)", async () => {
    const owner = await createBuilder();
    const other = await createBuilder();
    const app = await photoApp(owner);
    const appB = await photoApp(other);
    const theirs = (await uploadPhoto(appB.id, PNG)).json!.file_url;
    const mine = (await uploadPhoto(app.id, PNG)).json!;
    // An image of the app that is not a run photo (its logo), through the builder's route.
    const logo = (await upload(app.id, owner.token, PNG, "kind=logo")).json!.file_url;
    // A run photo's address with its key changed to another app's folder.
    const moved = mine.file_url.replace(app.id, appB.id);

    for (const value of [
      "https://example.com/cat.png",
      "data:image/png;base64,iVBORw0KGgo=",
      `http://localhost:3000${mine.file_url}`,
      `${mine.file_url}&x=1`,
      theirs,
      logo,
      moved,
      ["a", "b"],
    ]) {
      const res = await run(app.id, { inputs: { input: "hi", outfit: value } });
      expect(res.status, String(value)).toBe(400);
      expect(res.json).toEqual(photoInvalid("Your outfit"));
    }
    // Required: no photo at all is the required field's error.
    const empty = await run(app.id, { inputs: { input: "hi", outfit: "" } });
    expect(empty.status).toBe(400);
    expect(empty.json!.error).toEqual({
      code: "FIELD_REQUIRED",
      message: fillTemplate(messages.runFieldRequired, { label: "Your outfit" }),
    });
    expect(server.chats).toHaveLength(0);
    // Refused before a run was counted.
    expect(await db().select().from(toolRuns).where(eq(toolRuns.appId, app.id))).toHaveLength(0);

    // The app's own photo runs.
    expect((await run(app.id, { inputs: { input: "hi", outfit: mine.file_url } })).status).toBe(200);
  });

  it("a photo that storage lost is the field's error, and the run gives its credits back", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    const photo = (await uploadPhoto(app.id, PNG)).json!;
    const [row] = await db().select().from(uploads).where(eq(uploads.id, photo.id));
    fs.rmSync(path.join(STORAGE_DIR, row!.key));

    const res = await run(app.id, { inputs: { outfit: photo.file_url } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(photoInvalid("Your outfit"));
    expect(server.chats).toHaveLength(0);
  });

  it("a photo field that needs activation (no tag, not personal) sends no image", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "Say hello.",
        fields: [field({ name: "outfit", label: "Outfit", type: "photo" })],
      },
    });
    const photo = (await uploadPhoto(app.id, PNG)).json!;
    const res = await run(app.id, { inputs: { input: "hi", outfit: photo.file_url } });
    expect(res.status).toBe(200);
    expect(server.chats[0]!.messages.find((m) => m.role === "user")!.images).toBeUndefined();
  });

  it("is never remembered, even on a field saved with memorize", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "Rate [outfit] for a [occasion].",
        fields: [
          field({ name: "outfit", label: "Outfit", type: "photo", memorize: true }),
          field({ name: "occasion", label: "Occasion", memorize: true }),
        ],
      },
      settings: { isSignupEnabled: true },
    });
    const user = await createEndUser(app.id);
    const photo = (await uploadPhoto(app.id, PNG, { token: user.token })).json!;
    const res = await run(app.id, {
      token: user.token,
      inputs: { outfit: photo.file_url, occasion: "wedding" },
    });
    expect(res.status).toBe(200);
    const memories = await eventually(
      () =>
        call<{ memories: Record<string, unknown> }>(memoriesRoute.GET, {
          method: "GET",
          path: `/api/live_api/user/memories/current?appId=${app.id}`,
          token: user.token,
        }),
      (r) => Object.keys(r.json.memories).length > 0,
    );
    expect(memories.json).toEqual({ memories: { occasion: "wedding" } });
  });
});

describe("photos no run used", () => {
  it("are deleted, row and file, a day after their upload; photos a run used, and recent ones, stay", async () => {
    const owner = await createBuilder();
    const app = await photoApp(owner);
    const used = (await uploadPhoto(app.id, PNG)).json!;
    const abandoned = (await uploadPhoto(app.id, PNG)).json!;
    const recent = (await uploadPhoto(app.id, PNG)).json!;
    expect((await run(app.id, { inputs: { outfit: used.file_url } })).status).toBe(200);
    // Two days pass for the first two (the run took place on the first day).
    await db()
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - 2 * 24 * 3600_000) })
      .where(inArray(uploads.id, [used.id, abandoned.id]));
    const keyOf = async (id: string) => (await db().select().from(uploads).where(eq(uploads.id, id)))[0]?.key;
    const abandonedKey = (await keyOf(abandoned.id))!;

    const pruned = await pruneExpired();

    expect(pruned.unusedRunPhotos).toBeGreaterThanOrEqual(1);
    expect(await keyOf(abandoned.id)).toBeUndefined();
    expect(fs.existsSync(path.join(STORAGE_DIR, abandonedKey))).toBe(false);
    expect((await fetchFile(abandoned.file_url)).status).toBe(404);
    for (const kept of [used, recent]) {
      expect(await keyOf(kept.id)).toBeDefined();
      expect((await fetchFile(kept.file_url)).status).toBe(200);
    }
    // The run's photo still runs; the deleted one is the field's error.
    expect((await run(app.id, { inputs: { outfit: used.file_url } })).status).toBe(200);
    const gone = await run(app.id, { inputs: { outfit: abandoned.file_url } });
    expect(gone.status).toBe(400);
    expect(gone.json).toEqual(photoInvalid("Your outfit"));
  });
});
