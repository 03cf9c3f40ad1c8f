import "server-only";
import { cookies } from "next/headers";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import Google from "next-auth/providers/google";
import { findUserById } from "@/db/queries/users";
import { AppError } from "@/lib/api/errors";
import { clientIp } from "@/lib/api/route";
import { SESSION_MAX_AGE_S } from "@/lib/constants";
import { env, googleConfigured } from "@/lib/env";
import { logError } from "@/lib/log";
import { claimsFor } from "./claims";
import { redeemCustomToken } from "./custom-token";
import { googleSignIn, OAUTH_APP_COOKIE } from "./google";
import { passwordLogin } from "./login";
import type { SessionClaims } from "./session-token";
import { usesSecureCookies } from "./session-token";

/** Carries a catalogue key to the client: signIn() answers `{ error, code }`. */
class SignInRefused extends CredentialsSignin {
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

type ClaimsUser = { id: string; claims: SessionClaims };

function providers() {
  const list = [
    Credentials({
      id: "password",
      credentials: { email: {}, password: {}, appId: {} },
      async authorize(credentials, request): Promise<ClaimsUser> {
        try {
          const claims = await passwordLogin(
            {
              email: String(credentials.email ?? ""),
              password: String(credentials.password ?? ""),
              appId: credentials.appId ? String(credentials.appId) : undefined,
            },
            clientIp(request.headers),
          );
          return { id: claims.sub, claims };
        } catch (err) {
          if (err instanceof AppError) throw new SignInRefused(err.messageKey);
          logError("password sign-in failed", { err });
          throw new SignInRefused("internal");
        }
      },
    }),
    Credentials({
      id: "token",
      credentials: { customToken: {} },
      async authorize(credentials): Promise<ClaimsUser | null> {
        const claims = await redeemCustomToken(String(credentials.customToken ?? ""));
        return claims ? { id: claims.sub, claims } : null;
      },
    }),
  ];
  if (googleConfigured()) {
    const e = env();
    return [
      ...list,
      Google({
        clientId: e.GOOGLE_CLIENT_ID,
        clientSecret: e.GOOGLE_CLIENT_SECRET,
        ...(e.GOOGLE_ISSUER ? { issuer: e.GOOGLE_ISSUER } : {}),
      }),
    ];
  }
  return list;
}

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(() => ({
  secret: env().AUTH_SECRET,
  trustHost: true,
  useSecureCookies: usesSecureCookies(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/login", error: "/login" },
  providers: providers(),
  logger: {
    // Refused sign-ins are expected; everything else goes to our log.
    error: (err) => {
      if (err instanceof CredentialsSignin || (err as { type?: string }).type === "CredentialsSignin") return;
      logError("auth error", { err });
    },
    warn: () => {},
    debug: () => {},
  },
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== "google") return true;
      const tenant = (await cookies()).get(OAUTH_APP_COOKIE)?.value || null;
      const found = await googleSignIn(tenant, profile);
      if (!found) return false;
      // Auth.js hands this same user object to the jwt callback, which takes the claims.
      (user as Partial<ClaimsUser>).claims = claimsFor(found);
      return true;
    },
    async jwt({ token, user }) {
      if (user && "claims" in user) return { ...token, ...(user as ClaimsUser).claims };
      // Every later read of the session checks the user again, like the route wrapper does:
      // a deleted or disabled user, or a token from before a password reset, is signed out.
      const t = token as unknown as Partial<SessionClaims>;
      const u = typeof t.sub === "string" ? await findUserById(t.sub) : undefined;
      if (!u || u.disabledAt || u.sessionVersion !== t.sv || u.tenantId !== t.tid) return null;
      // Fresh claims (verified email, new address) whenever the session is read or updated.
      return { ...token, ...claimsFor(u) };
    },
    session({ session, token }) {
      const t = token as unknown as SessionClaims;
      return {
        ...session,
        user: { ...session.user, id: t.sub, email: t.email, tenantId: t.tid, emailVerified: t.ev },
      };
    },
  },
}));
