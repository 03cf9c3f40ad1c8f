import { route } from "@/lib/api/route";
import { OutboxAnswer, OutboxQuery } from "@/lib/auth/schemas";
import { listOutbox } from "@/lib/email/outbox";

// GET /api/dev/outbox?to= - mails written to the outbox; absent in production
export const GET = route(
  // 404 in production
  { auth: "public", query: OutboxQuery, response: OutboxAnswer, errors: [404] },
  ({ query }) => listOutbox(query.to),
);
