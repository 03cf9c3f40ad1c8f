import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { deleteItem, renameItem } from "@/lib/context/items";
import { ContextItemParams, RenameContextItemBody } from "@/lib/context/schemas";

// DELETE /api/context/{id} - delete a data source and its chunks
export const DELETE = route(
  {
    auth: "builder",
    params: ContextItemParams,
    summary: "Delete a data source",
    response: OkAnswer,
    // 404: no data source of an app the caller may edit has that id
    errors: [404],
  },
  ({ session, params }) => deleteItem(session, params.id),
);

// PATCH /api/context/{id} - rename a data source
export const PATCH = route(
  {
    auth: "builder",
    params: ContextItemParams,
    body: RenameContextItemBody,
    summary: "Rename a data source",
    response: OkAnswer,
    errors: [404],
  },
  ({ session, params, body }) => renameItem(session, params.id, body.name),
);
