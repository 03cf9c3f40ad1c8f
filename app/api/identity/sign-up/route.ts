import { route } from "@/lib/api/route";
import { SignUpBody } from "@/lib/auth/schemas";
import { signUp } from "@/lib/auth/signup";

// POST /api/identity/sign-up - create a user with email and password (builder, or end user of appId)
export const POST = route({ auth: "public", body: SignUpBody }, ({ body, ip }) => signUp(body, ip));
