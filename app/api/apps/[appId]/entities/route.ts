import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { listEntities } from "@/lib/space/entities";
import { EntityListAnswer } from "@/lib/space/schemas";

// GET /api/apps/{appId}/entities - the space app's entities (but User) with their fields and access, from its current version
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary: "The entities of a space app's current version (but User), with their fields and access levels",
    response: EntityListAnswer,
  },
  ({ app }) => listEntities(app),
);
