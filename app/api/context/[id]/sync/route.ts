import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { ContextItemParams } from "@/lib/context/schemas";
import { syncItem } from "@/lib/integrations/ingest";

// POST /api/context/{id}/sync - read a website, Notion or Google Drive data source again
export const POST = route(
  {
    auth: "builder",
    params: ContextItemParams,
    summary: "Sync a website, Notion or Google Drive data source again",
    response: OkAnswer,
    // 404: no data source of an app the caller may edit has that id; 400 also when it is not
    // syncable, its connector is not connected, or the month's processing is used up
    errors: [404],
  },
  ({ session, params }) => syncItem(session, params.id),
);
