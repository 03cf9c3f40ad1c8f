import { describe, expect, it } from "vitest";
import { checkImageFile, progressPercent, uploadErrorMessage } from "@/components/uploads/upload-image";
import { IMAGE_MAX_BYTES } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { isValidKey } from "@/lib/storage/driver";
import { uploadIdFromUrl } from "@/lib/uploads/schemas";

describe("checkImageFile (before sending)", () => {
  it("refuses files of 10,000,000 bytes or more with the spec's message", () => {
    expect(checkImageFile({ size: IMAGE_MAX_BYTES, type: "image/png" })).toBe(messages.fileTooLarge);
    expect(checkImageFile({ size: IMAGE_MAX_BYTES + 1, type: "image/png" })).toBe(messages.fileTooLarge);
    expect(checkImageFile({ size: IMAGE_MAX_BYTES - 1, type: "image/png" })).toBeNull();
    expect(messages.fileTooLarge).toBe("File size to large");
  });

  it("refuses a declared non-image type, and leaves an unknown type to the server's check", () => {
    expect(checkImageFile({ size: 10, type: "text/plain" })).toBe(messages.uploadNotAnImage);
    expect(checkImageFile({ size: 10, type: "application/x-sh" })).toBe(messages.uploadNotAnImage);
    expect(checkImageFile({ size: 10, type: "text/plain" }, messages.runPhotoType)).toBe(
      messages.runPhotoType,
    );
    expect(checkImageFile({ size: 10, type: "image/svg+xml" })).toBeNull();
    expect(checkImageFile({ size: 10, type: "" })).toBeNull();
  });
});

describe("uploadErrorMessage", () => {
  it("says the file is too large for a 413, whatever the body", () => {
    expect(uploadErrorMessage(413, null)).toBe(messages.fileTooLarge);
  });

  it("shows the server's message: the spec's wording, or a storage error as-is", () => {
    const refused = { error: { code: "upload/not-an-image", message: messages.uploadNotAnImage } };
    expect(uploadErrorMessage(400, refused)).toBe(messages.uploadNotAnImage);
    const storage = { error: { code: "STORAGE_ERROR", message: "The specified bucket does not exist" } };
    expect(uploadErrorMessage(500, storage)).toBe("The specified bucket does not exist");
  });

  it("asks to try again when the network failed or the server said nothing useful", () => {
    expect(uploadErrorMessage(0, null)).toBe(messages.uploadFailedRetry);
    expect(uploadErrorMessage(502, "<html>Bad gateway</html>")).toBe(messages.uploadFailedRetry);
    expect(uploadErrorMessage(500, { error: { code: "INTERNAL", message: messages.internal } })).toBe(
      messages.uploadFailedRetry,
    );
    expect(messages.uploadFailedRetry).toBe("Failed to upload image. Please try again.");
  });
});

describe("progressPercent", () => {
  it("rounds to whole percents within 0-100", () => {
    expect(progressPercent(0, 200)).toBe(0);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(200, 200)).toBe(100);
    expect(progressPercent(10, 0)).toBeNull();
  });
});

describe("uploadIdFromUrl", () => {
  const id = "0b8e3c4e-6f4b-4c8f-9a51-2f6d1d0c9e11";
  it("reads the upload id of a served URL, absolute or relative", () => {
    expect(uploadIdFromUrl(`https://b.example.com/api/files/accounts/a/apps/b/logo/${id}.png?v=${id}`)).toBe(
      id,
    );
    expect(uploadIdFromUrl(`/api/files/accounts/a/apps/b/tools/c/thumb?v=${id}`)).toBe(id);
  });
  it("is null for any other URL", () => {
    expect(uploadIdFromUrl(`https://cdn.example.com/logo.png?v=${id}`)).toBeNull();
    expect(uploadIdFromUrl("/api/files/x?v=not-a-uuid")).toBeNull();
    expect(uploadIdFromUrl("")).toBeNull();
  });
});

describe("storage keys", () => {
  it("are plain relative paths", () => {
    expect(isValidKey("accounts/a/apps/b/options/c.png")).toBe(true);
    expect(isValidKey("accounts/a/apps/b/tools/c/thumb")).toBe(true);
  });
  it.each([
    "",
    "/etc/passwd",
    "../secret",
    "a/../../b",
    "a/./b",
    "a//b",
    "a/b/",
    "a\\..\\b",
    "a/.hidden",
    "a/b..png",
    "a/%2e%2e/b",
    "a/b c",
    `a/${"x".repeat(256)}`,
    "x/".repeat(600),
  ])("refuse %j", (key) => {
    expect(isValidKey(key)).toBe(false);
  });
});
