import { createAccount } from "@/lib/accounts/account";
import { route } from "@/lib/api/route";
import { AccountIdAnswer, CreateAccountQuery } from "@/lib/auth/schemas";

// POST /api/live_api/account/create?sale_id= - idempotent; 401 while the sale is not yet paid
export const POST = route(
  { auth: "user", query: CreateAccountQuery, response: AccountIdAnswer },
  ({ session, query }) => createAccount(session, query.sale_id),
);
