import { route } from "@/lib/api/route";
import { ContextItemParams } from "@/lib/context/schemas";
import { syncItem } from "@/lib/integrations/ingest";

// POST /api/context/{id}/sync - read a website, Notion or Google Drive data source again
export const POST = route(
  {
    auth: "builder",
    params: ContextItemParams,
    summary: "Sync a website, Notion or Google Drive data source again",
  },
  ({ session, params }) => syncItem(session, params.id),
);
