import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { replaceDataItem } from "@/lib/context/items";
import { ReplaceDataItemBody, ReplaceDataItemParams } from "@/lib/context/schemas";

// POST /api/tools/{appId}/replaceDataItem - the new data source takes the old one's place; the
// old one is deleted with its chunks, rows and stored file
export const POST = route(
  {
    auth: "builder",
    params: ReplaceDataItemParams,
    body: ReplaceDataItemBody,
    app: "edit",
    summary: "Replace a data source with another of the app's (the old one is deleted)",
    // 404 also when either item is not one of the app's data sources
    response: OkAnswer,
  },
  ({ app, body }) => replaceDataItem(app, body.oldItemId, body.newItemId),
);
