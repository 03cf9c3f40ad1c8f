import "server-only";
import crypto from "node:crypto";
import { counter } from "@/db/queries/rate-limits";
import { findRunPhotosOfApp, markRunPhotosUsed, upsertUpload } from "@/db/queries/uploads";
import type { Upload } from "@/db/schema";
import { BODY_CAPS } from "@/lib/api/body-caps";
import { readBodyCapped } from "@/lib/api/read-body";
import { isUuid } from "@/lib/apps/access";
import type { Session } from "@/lib/auth/session";
import { RUN_PHOTOS_PER_SUBJECT, RUN_PHOTOS_PER_SUBJECT_WINDOW_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { assertMembership, readGateAhead } from "@/lib/payments/membership";
import { storage } from "@/lib/storage";
import { detectImageType } from "@/lib/uploads/image-type";
import { deleteStoredObjects, fileUrl, inStorage } from "@/lib/uploads/upload-image";
import { loadRunTarget, type RunTarget, runnerOf } from "./access";
import { type CheckedInputs, photoFieldError } from "./inputs";
import type { ModelImage } from "./model-stream";
import type { PromptPhoto } from "./prompt";
import { parseRunPhotoUrl, RUN_PHOTO_FOLDER, RUN_PHOTO_TYPES, type RunPhotoAnswer } from "./run-photo";

// Photos for runs: an end user (a visitor, when the app lets visitors run it; the
// builder, previewing a draft) uploads a photo for a tool's photo field, and the run sends its
// bytes to the model as an image. Who may upload is who may run the tool (lib/runs/access.ts),
// and only to a tool that asks for a photo. Each upload takes a point of its uploader's counter
// before anything is read or stored, so a parallel burst never gets past the limit.

const photoUploads = counter("run-photo", RUN_PHOTOS_PER_SUBJECT, RUN_PHOTOS_PER_SUBJECT_WINDOW_S);

type UploadCtx = {
  session: Session | null;
  appId: string;
  toolId: string | undefined;
  ip: string;
  /** The request, whose body (the photo's bytes) is read once the upload's point is taken. */
  req: Request;
};

/** POST /api/apps/{appId}/run/photos: stores the photo; its `file_url` is the photo field's value. */
export async function uploadRunPhoto({
  session,
  appId,
  toolId,
  ip,
  req,
}: UploadCtx): Promise<RunPhotoAnswer> {
  const gateAhead = isUuid(appId) ? readGateAhead(appId, session) : undefined;
  const { target, preview } = await loadRunTarget(appId, toolId, session);
  const runner = runnerOf(session, target.app, ip);
  if (runner.kind === "visitor" && target.settings.isSignupEnabled) {
    throw new AppError("UNAUTHENTICATED", "runSignInRequired", "SIGN_IN_REQUIRED");
  }
  if (session?.disabled && runner.kind !== "visitor") throw new AppError("FORBIDDEN", "userDisabled");
  // Not a place to keep any picture: only a tool with a photo field takes one.
  if (!target.fields.some((f) => f.type === "photo")) {
    throw new AppError("BAD_REQUEST", "runPhotoNotAsked", "NO_PHOTO_FIELD");
  }
  if (!preview) await assertMembership(target.app, session, gateAhead);
  // The point is taken whatever comes of the upload: refused files count too.
  if (!(await photoUploads.consume(runner.subject))) throw new AppError("RATE_LIMITED", "tooManyRequests");

  const bytes = await readBodyCapped(req, BODY_CAPS.image, "fileTooLarge");
  const type = detectImageType(bytes);
  // No image at all: the same words as for an image of another type, naming the ones a photo may be.
  if (!type) throw new AppError("BAD_REQUEST", "runPhotoType", "upload/not-an-image");
  if (!(RUN_PHOTO_TYPES as readonly string[]).includes(type.mime)) {
    throw new AppError("BAD_REQUEST", "runPhotoType", "upload/unsupported-type");
  }

  const id = crypto.randomUUID();
  const key = `accounts/${target.app.ownerAccountId}/apps/${target.app.id}/${RUN_PHOTO_FOLDER}/${id}.${type.ext}`;
  await inStorage(() => storage().put(key, bytes, type.mime));
  try {
    const row = await upsertUpload({
      id,
      appId: target.app.id,
      accountId: target.app.ownerAccountId,
      kind: "run_photo",
      toolId: target.tool?.id ?? null,
      key,
      contentType: type.mime,
      size: bytes.byteLength,
    });
    return { id: row.id, file_url: fileUrl(row) };
  } catch (err) {
    // Not recorded (the app was deleted meanwhile, ...): its object is not left behind.
    await deleteStoredObjects([key]);
    throw err;
  }
}

/** The photos a run names, found among the app's run photos, by field name. */
export type RunPhotos = Map<string, Upload>;

/**
 * The uploads behind a run's photo fields: each must be a photo uploaded for this app (400
 * PHOTO_INVALID naming the field otherwise: another app's photo, one that was deleted, ...).
 * The inputs were checked first (lib/runs/inputs.ts), so every value is a run photo's address.
 */
export async function findRunPhotos(target: RunTarget, inputs: CheckedInputs): Promise<RunPhotos> {
  const named = target.fields.flatMap((field) => {
    const value = inputs[field.name];
    const parsed = field.type === "photo" && typeof value === "string" ? parseRunPhotoUrl(value) : null;
    return parsed ? [{ field, ...parsed }] : [];
  });
  const rows = await findRunPhotosOfApp(
    target.app.id,
    named.map((n) => n.id),
  );
  const found: RunPhotos = new Map();
  for (const { field, id, key } of named) {
    const row = rows.find((r) => r.id === id && r.key === key);
    if (!row) throw photoFieldError(field);
    found.set(field.name, row);
  }
  return found;
}

/**
 * Marks the photos as used once the run is recorded (its inputs hold their addresses, which
 * analytics shows): a photo no run used is deleted a day after its upload (lib/jobs/prune.ts).
 */
export async function keepRunPhotos(photos: RunPhotos): Promise<void> {
  await markRunPhotosUsed([...photos.values()].map((p) => p.id));
}

/**
 * The bytes of the photos the prompt sends, read from storage now: the model server is given
 * the image itself and never has to fetch an address of ours. A photo that storage lost is the
 * field's error, so the user can upload it again.
 */
export async function readRunPhotos(
  target: RunTarget,
  photos: RunPhotos,
  wanted: readonly PromptPhoto[],
): Promise<ModelImage[]> {
  return Promise.all(
    wanted.map(async ({ field, caption }) => {
      const upload = photos.get(field);
      const object = upload ? await inStorage(() => storage().get(upload.key)) : null;
      if (!upload || !object) {
        throw photoFieldError(target.fields.find((f) => f.name === field)!);
      }
      const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
      return { caption, bytes, mediaType: upload.contentType };
    }),
  );
}
