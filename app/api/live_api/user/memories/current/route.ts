import { route } from "@/lib/api/route";
import { clearMemories, currentMemories } from "@/lib/runs/memories";
import { MemoriesAnswer, MemoriesClearedAnswer, MemoriesQuery } from "@/lib/runs/schemas";

// GET /api/live_api/user/memories/current?appId={appId} - what the app remembers of the signed-in end user (memorize fields)
export const GET = route(
  {
    auth: "user",
    query: MemoriesQuery,
    summary: "The signed-in end user's memories in an app",
    response: MemoriesAnswer,
    // 404: no published app of appId
    errors: [404],
  },
  ({ session, query }) => currentMemories(session, query.appId),
);

// DELETE /api/live_api/user/memories/current?appId={appId} - forget them
export const DELETE = route(
  {
    auth: "user",
    query: MemoriesQuery,
    summary: "Forget the signed-in end user's memories in an app",
    response: MemoriesClearedAnswer,
    errors: [404],
  },
  ({ session, query }) => clearMemories(session, query.appId),
);
