import { currentAccount } from "@/lib/accounts/account";
import { route } from "@/lib/api/route";
import { CurrentAccountAnswer } from "@/lib/auth/schemas";

// GET /api/live_api/account/current - the signed-in user's account
export const GET = route(
  // 404 ACCOUNT_NOT_FOUND: the user has no account yet (POST /api/live_api/account/create)
  { auth: "user", response: CurrentAccountAnswer, errors: [404] },
  async ({ session }) => currentAccount(session),
);
