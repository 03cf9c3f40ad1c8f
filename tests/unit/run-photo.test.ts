import { describe, expect, it } from "vitest";
import { CustomField } from "@/lib/apps/schemas";
import type { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { checkInputs, withoutPhotos } from "@/lib/runs/inputs";
import { buildPrompt, retrievalQuery } from "@/lib/runs/prompt";
import { parseRunPhotoUrl } from "@/lib/runs/run-photo";
import { fillTemplate } from "@/lib/text";
import { startOpenAiServer } from "../support/openai-server";

// Photo fields in the pure parts of a run: which values are a run photo's address, the field's
// error for anything else, the prompt's words for a photo and the photos it sends; and the local
// model server's reading of image parts.

const f = (o: Record<string, unknown>) => CustomField.parse({ type: "text", ...o });
const content = (gptPrompt: string) => ({ gptPrompt, blocks: [] });

const ACCOUNT = "8f0c6f8e-4a3b-4c1d-9e2f-0a1b2c3d4e5f";
const APP = "1d2e3f40-5a6b-4c7d-8e9f-a0b1c2d3e4f5";
const ID = "0e1f2a3b-4c5d-4e6f-8a9b-c0d1e2f3a4b5";
const KEY = `accounts/${ACCOUNT}/apps/${APP}/run-photos/${ID}.png`;
const URL_ = `/api/files/${KEY}?v=${ID}`;

describe("parseRunPhotoUrl", () => {
  it("reads the key and id of a run photo's file_url exactly as the upload answered it", () => {
    expect(parseRunPhotoUrl(URL_)).toEqual({ key: KEY, id: ID });
    for (const ext of ["jpg", "webp", "gif"]) {
      expect(parseRunPhotoUrl(URL_.replace(".png", `.${ext}`))?.id).toBe(ID);
    }
  });

  it("refuses every other address", () => {
    const other = "2e1f2a3b-4c5d-4e6f-8a9b-c0d1e2f3a4b5";
    for (const value of [
      "https://example.com/photo.png",
      `https://example.com${URL_}`,
      `//example.com${URL_}`,
      `/api/files/${KEY}`,
      `/api/files/${KEY}?v=${other}`,
      `${URL_}&v=${ID}`,
      `${URL_}?x`,
      URL_.replace("run-photos", "logo"),
      URL_.replace("run-photos", "run-photos/../logo"),
      URL_.replace(".png", ".svg"),
      URL_.toUpperCase(),
      "data:image/png;base64,iVBORw0KGgo=",
      "",
    ]) {
      expect(parseRunPhotoUrl(value), value).toBeNull();
    }
  });
});

describe("checkInputs: photo fields", () => {
  const photo = f({ name: "outfit", label: "Outfit", type: "photo" });
  const refused = (value: unknown) => {
    try {
      checkInputs({ isInputHidden: false }, [photo], { input: "hi", outfit: value as string });
    } catch (err) {
      return err as AppError;
    }
    throw new Error("not refused");
  };

  it("keeps a run photo's address; empty is no photo", () => {
    expect(checkInputs({ isInputHidden: false }, [photo], { input: "hi", outfit: ` ${URL_} ` })).toEqual({
      input: "hi",
      outfit: URL_,
    });
    expect(checkInputs({ isInputHidden: false }, [photo], { input: "hi", outfit: "" }).outfit).toBeNull();
  });

  it("refuses a link, a number or a list with the field's error", () => {
    for (const value of ["https://example.com/a.png", 3, [URL_]]) {
      const err = refused(value);
      expect(err.status).toBe(400);
      expect(err.code).toBe("PHOTO_INVALID");
      expect(err.message).toBe(fillTemplate(messages.runPhotoInvalid, { label: "Outfit" }));
      expect(err.extra).toEqual({ field: "outfit" });
    }
  });

  it("a photo's address is no words to search the app's data with", () => {
    const inputs = { input: "summer", outfit: URL_ };
    expect(retrievalQuery(withoutPhotos([photo], inputs))).toBe("summer");
  });
});

describe("buildPrompt: photos", () => {
  it("a photo's tag reads as the attached photo; a used photo field is sent after a line naming it", () => {
    const fields = [
      f({ name: "outfit", label: 'My "best" outfit', type: "photo" }),
      f({ name: "face", label: "Face", type: "photo", personal: true }),
      f({ name: "unused", label: "Unused", type: "photo" }),
      f({ name: "empty", label: "Empty", type: "photo" }),
    ];
    const p = buildPrompt(
      content("Rate [outfit]. Also [empty]."),
      fields,
      { input: "Wedding?", outfit: URL_, face: URL_, unused: URL_, empty: null },
      { kind: "none" },
    );
    expect(p.instructions).toContain(`Rate the photo "My 'best' outfit" (attached). Also (not given).`);
    expect(p.instructions).toContain('About the user:\n- Face: the photo "Face" (attached)');
    expect(p.instructions).not.toContain("/api/files/");
    expect(p.prompt).toBe("Wedding?");
    expect(p.photos).toEqual([
      { field: "outfit", caption: `The photo "My 'best' outfit":` },
      { field: "face", caption: 'The photo "Face":' },
    ]);
  });
});

describe("the local model server: image parts", () => {
  it("records each image of a user message (media type and size of a data: URL) and refuses a broken one", async () => {
    const server = await startOpenAiServer();
    try {
      const post = (content: unknown) =>
        fetch(`${server.url}/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] }),
        });
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const ok = await post([
        { type: "text", text: "Look" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
        { type: "image_url", image_url: { url: "https://example.com/x.jpg" } },
      ]);
      expect(ok.status).toBe(200);
      expect(server.chats[0]!.messages[0]).toEqual({
        role: "user",
        content: "Look",
        images: [
          {
            url: `data:image/png;base64,${png.toString("base64")}`,
            mediaType: "image/png",
            bytes: png.length,
          },
          { url: "https://example.com/x.jpg", mediaType: null, bytes: null },
        ],
      });
      // A message without images reads as before.
      expect((await post("Hi")).status).toBe(200);
      expect(server.chats[1]!.messages[0]).toEqual({ role: "user", content: "Hi" });

      const broken = await post([{ type: "image_url", image_url: { url: "data:text/plain;base64,aGk=" } }]);
      expect(broken.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
