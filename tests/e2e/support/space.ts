import crypto from "node:crypto";
import { sql } from "./db";

const sha256 = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest("hex");

/**
 * A space app's version, written as lib/space/versions.ts writes a first one (a full listing).
 * `current`: the app's head points at it and app_files hold its tree, as after a chat answer.
 */
export async function seedVersion(
  appId: string,
  accountId: string,
  files: Record<string, string>,
  opts: { current?: boolean } = {},
): Promise<string> {
  for (const [, content] of Object.entries(files)) {
    await sql(
      `INSERT INTO space_blobs (app_id, hash, content, size) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [appId, sha256(content), content, Buffer.byteLength(content)],
    );
  }
  const [version] = await sql<{ id: string }>(
    `INSERT INTO versions (app_id, number, kind, snapshot_distance, file_count, created_by_account_id, metadata)
     VALUES ($1, (SELECT count(*) + 1 FROM versions WHERE app_id = $1), 'edit', 0, $2, $3, $4) RETURNING id`,
    [
      appId,
      Object.keys(files).length,
      accountId,
      JSON.stringify({ added: Object.keys(files), modified: [], deleted: [] }),
    ],
  );
  for (const [path, content] of Object.entries(files)) {
    await sql(
      `INSERT INTO version_files (version_id, app_id, path, blob_hash, change) VALUES ($1, $2, $3, $4, 'added')`,
      [version!.id, appId, path, sha256(content)],
    );
  }
  if (opts.current) {
    for (const [path, content] of Object.entries(files)) {
      await sql("INSERT INTO app_files (app_id, path, blob_hash) VALUES ($1, $2, $3)", [
        appId,
        path,
        sha256(content),
      ]);
    }
    await sql("INSERT INTO space_heads (app_id, version_id, revision) VALUES ($1, $2, 1)", [
      appId,
      version!.id,
    ]);
  }
  return version!.id;
}
