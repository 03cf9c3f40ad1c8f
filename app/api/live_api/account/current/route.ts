import { currentAccount } from "@/lib/accounts/account";
import { route } from "@/lib/api/route";

// GET /api/live_api/account/current - the signed-in user's account
export const GET = route({ auth: "user" }, async ({ session }) => currentAccount(session));
