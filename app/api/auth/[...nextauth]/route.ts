// GET|POST /api/auth/* - Auth.js: sign-in providers (password, custom token, Google), session, sign-out.
import { handlers } from "@/lib/auth/next-auth";

export const { GET, POST } = handlers;
