import { route } from "@/lib/api/route";
import { OutboxQuery } from "@/lib/auth/schemas";
import { listOutbox } from "@/lib/email/outbox";

// GET /api/dev/outbox?to= - mails written to the outbox; absent in production
export const GET = route({ auth: "public", query: OutboxQuery }, ({ query }) => listOutbox(query.to));
