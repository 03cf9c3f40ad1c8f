import "server-only";
import { cookies, headers } from "next/headers";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import Google from "next-auth/providers/google";
import type { User } from "@/db/schema";
import { SESSION_IDLE_S } from "@/lib/constants";
import { appOrigin, env, googleConfigured } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { clientIp } from "@/lib/security/client-ip";
import { redeemCustomToken } from "./custom-token";
import { googleSignIn, OAUTH_APP_COOKIE } from "./google";
import { passwordLogin } from "./login";
import { CustomTokenBody, PasswordSignInBody } from "./schemas";
import type { SessionClaims } from "./session-token";
import { usesSecureCookies } from "./session-token";
import { endSession, refreshClaims, type SessionMeta, startSession } from "./sessions";

/** Carries a catalogue key to the client: signIn() answers `{ error, code }`. */
class SignInRefused extends CredentialsSignin {
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

/** What a provider hands to the jwt callback: the user who proved who they are, and from where. */
type SignedInUser = { id: string; signedIn: User; meta: SessionMeta };

const metaOf = (h: Headers): SessionMeta => ({ userAgent: h.get("user-agent"), ip: clientIp(h) });

function providers() {
  const list = [
    Credentials({
      id: "password",
      credentials: { email: {}, password: {}, appId: {} },
      async authorize(credentials, request): Promise<SignedInUser> {
        // The API's own schema and limits: an over-long field is refused like a wrong password,
        // before anything is hashed.
        const input = PasswordSignInBody.safeParse({
          email: credentials.email ?? "",
          password: credentials.password ?? "",
          appId: credentials.appId || undefined,
        });
        if (!input.success) throw new SignInRefused("invalidCredentials");
        try {
          const user = await passwordLogin(input.data, clientIp(request.headers));
          return { id: user.id, signedIn: user, meta: metaOf(request.headers) };
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
      async authorize(credentials, request): Promise<SignedInUser | null> {
        const token = CustomTokenBody.safeParse(credentials);
        const user = token.success ? await redeemCustomToken(token.data.customToken) : null;
        return user ? { id: user.id, signedIn: user, meta: metaOf(request.headers) } : null;
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

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(() => {
  // Auth.js builds its URLs (redirects, OAuth callbacks) from AUTH_URL when set, and from the
  // request's Host otherwise: ours is always APP_URL, whatever a request claims.
  process.env.AUTH_URL = new URL("/api/auth", appOrigin()).toString();
  return config();
});

const config = (): NextAuthConfig => ({
  secret: env().AUTH_SECRET,
  trustHost: true,
  useSecureCookies: usesSecureCookies(),
  // The cookie's lifetime is the idle timeout; the server-side session row holds the absolute one.
  session: { strategy: "jwt", maxAge: SESSION_IDLE_S },
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
  events: {
    // Logout ends the server-side session: the cookie and every bearer token issued from it.
    async signOut(message) {
      if ("token" in message) await endSession(message.token as Partial<SessionClaims> | null);
    },
  },
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== "google") return true;
      const tenant = (await cookies()).get(OAUTH_APP_COOKIE)?.value || null;
      const found = await googleSignIn(tenant, profile);
      if (!found) return false;
      // Auth.js hands this same user object to the jwt callback, which opens the session.
      Object.assign(user, { signedIn: found, meta: metaOf(await headers()) });
      return true;
    },
    async jwt({ token, user }) {
      if (user && "signedIn" in user) {
        const { signedIn, meta } = user as SignedInUser;
        return { ...token, ...(await startSession(signedIn, meta)).claims };
      }
      // Every later read of the session checks its server-side row, like the route wrapper does:
      // after logout, a reset, a disable or "sign out everywhere" the cookie is signed out.
      const claims = await refreshClaims(token as Partial<SessionClaims>);
      // Fresh claims (verified email, new address) whenever the session is read or updated.
      return claims ? { ...token, ...claims } : null;
    },
    session({ session, token }) {
      const t = token as unknown as SessionClaims;
      return {
        ...session,
        user: { ...session.user, id: t.sub, email: t.email, tenantId: t.tid, emailVerified: t.ev },
      };
    },
  },
});
