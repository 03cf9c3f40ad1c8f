import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { readBody } from "./read-body";

// A small OpenID Connect provider standing in for Google in tests. It speaks the real
// protocol Auth.js uses (discovery, authorization code with PKCE, token endpoint with
// client_secret_basic/post, RS256 id_token, JWKS, userinfo), so the production Google
// provider code runs unchanged. The "user" who signs in is set by the test.
export type OidcUser = { sub: string; email: string; name?: string; email_verified?: boolean };

export type OidcServer = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  setUser(user: OidcUser): void;
  close(): Promise<void>;
};

export async function startOidcServer(opts: { port?: number } = {}): Promise<OidcServer> {
  const clientId = "test-google-client";
  const clientSecret = "test-google-secret";
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  let user: OidcUser = {
    sub: "google-user-1",
    email: "google.user@example.com",
    name: "Google User",
    email_verified: true,
  };
  const codes = new Map<
    string,
    { challenge?: string; nonce?: string; redirectUri: string; user: OidcUser }
  >();
  const accessTokens = new Map<string, OidcUser>();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
      res.end(JSON.stringify(body));
    };
    try {
      if (url.pathname === "/.well-known/openid-configuration") {
        return send(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          scopes_supported: ["openid", "email", "profile"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
          code_challenge_methods_supported: ["S256"],
        });
      }
      if (url.pathname === "/jwks") return send(200, { keys: [jwk] });
      // Test control: which Google account "signs in" next (specs run in another process).
      if (url.pathname === "/test/user" && req.method === "POST") {
        user = { email_verified: true, ...(JSON.parse(await readBody(req)) as OidcUser) };
        return send(200, user);
      }
      if (url.pathname === "/authorize") {
        const p = url.searchParams;
        if (p.get("client_id") !== clientId || p.get("response_type") !== "code")
          return send(400, { error: "invalid_request" });
        const redirectUri = p.get("redirect_uri") ?? "";
        const code = crypto.randomBytes(16).toString("hex");
        codes.set(code, {
          challenge: p.get("code_challenge") ?? undefined,
          nonce: p.get("nonce") ?? undefined,
          redirectUri,
          user,
        });
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        if (p.get("state")) back.searchParams.set("state", p.get("state")!);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = new URLSearchParams(await readBody(req));
        const basic = req.headers.authorization?.startsWith("Basic ")
          ? Buffer.from(req.headers.authorization.slice(6), "base64")
              .toString()
              .split(":")
              .map(decodeURIComponent)
          : [form.get("client_id"), form.get("client_secret")];
        if (basic[0] !== clientId || basic[1] !== clientSecret) return send(401, { error: "invalid_client" });
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant || grant.redirectUri !== form.get("redirect_uri"))
          return send(400, { error: "invalid_grant" });
        if (grant.challenge) {
          const verifier = form.get("code_verifier") ?? "";
          const hashed = crypto.createHash("sha256").update(verifier).digest("base64url");
          if (hashed !== grant.challenge) return send(400, { error: "invalid_grant" });
        }
        const accessToken = crypto.randomBytes(16).toString("hex");
        accessTokens.set(accessToken, grant.user);
        const idToken = await new SignJWT({ ...grant.user, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
          .setProtectedHeader({ alg: "RS256", kid: "test-key" })
          .setIssuer(issuer)
          .setSubject(grant.user.sub)
          .setAudience(clientId)
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey);
        return send(200, {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: 300,
          id_token: idToken,
          scope: "openid email profile",
        });
      }
      if (url.pathname === "/userinfo") {
        const u = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, "") ?? "");
        return u ? send(200, u) : send(401, { error: "invalid_token" });
      }
      send(404, { error: "not_found" });
    } catch (err) {
      send(500, { error: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    clientSecret,
    setUser: (u) => {
      user = { email_verified: true, ...u };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
