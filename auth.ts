// next-auth (Auth.js v5) for the dashboard: email + password (Credentials provider), JWT sessions in an
// httpOnly, SameSite=Lax cookie (Secure under HTTPS, where next-auth names it `__Secure-…`).
// The rules live in lib/auth: attempt-sign-in.ts (passwords, lockout), session-claims.ts (idle logoff,
// absolute lifetime), require-user.ts (user still exists, not disabled, same session version, role).
// Single sign-on: next-auth's own OpenID Connect support (discovery, PKCE, state, nonce, ID token checks);
// lib/auth/sso links the verified identity to a user and opens the session (README "Single sign-on").
// Configured lazily (a function), so that nothing reads the environment at build time.
import NextAuth, { AuthError, CredentialsSignin, type NextAuthConfig, type User } from "next-auth";
import type { OIDCConfig } from "next-auth/providers";
import Credentials from "next-auth/providers/credentials";
import * as z from "zod";
import { ROLES } from "@/lib/auth/access-policy";
import { attemptSignIn } from "@/lib/auth/attempt-sign-in";
import { sameOriginPath } from "@/lib/auth/safe-callback";
import {
  SessionClaimsSchema,
  sessionCookieMaxAgeSeconds,
  sessionEnded,
  type SessionClaims,
} from "@/lib/auth/session-claims";
import { OIDC_PROVIDER_ID, oidcSettings, type OidcSettings } from "@/lib/auth/sso/oidc-settings";
import { passwordSignInAllowed } from "@/lib/auth/sso/password-sign-in-allowed";
import { signInWithOidc } from "@/lib/auth/sso/sign-in-with-oidc";
import { forgetUserSession } from "@/lib/auth/user-sessions";
import { env } from "@/lib/env";
import { clientAddressOf } from "@/lib/http/request-context";
import { log } from "@/lib/log";

/** Wrong email or password (deliberately the same answer for both). */
export class SignInInvalid extends CredentialsSignin {
  code = "invalid";
}

/** Locked out: retry at `retryAt`. The code (it may reach a URL) carries the time, never the reason. */
export class SignInLocked extends CredentialsSignin {
  readonly retryAt: Date;
  constructor(retryAt: Date) {
    super("sign-in locked");
    this.retryAt = retryAt;
    this.code = `locked-${Math.ceil(retryAt.getTime() / 1000)}`;
  }
}

/** SSO_ONLY=true and not a break-glass admin: password sign-in is refused before the password is looked at. */
export class SignInSsoOnly extends CredentialsSignin {
  code = "sso-only";
}

function oidcProvider(sso: OidcSettings): OIDCConfig<Record<string, unknown>> {
  return {
    id: OIDC_PROVIDER_ID,
    name: sso.name,
    type: "oidc",
    issuer: sso.issuer,
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile" } },
  };
}

/** Where the signIn callback sends a refused SSO sign-in: `/login?sso=<reason>`. */
const SSO_REFUSAL_PATH = /^\/login\?sso=[a-z_]{1,40}$/;

const SignedInUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  sessionVersion: z.number().int(),
  sessionId: z.string(),
});

/** The configuration for one request (or none: server actions, session reads); app/api/auth serves with it too. */
export function authConfig(request: Request | undefined): NextAuthConfig {
  const sso = oidcSettings();
  const clientAddress = request ? clientAddressOf(request) : null;
  return {
    secret: env().AUTH_SECRET,
    // With PUBLIC_URL set, scripts/serve.ts gives it to next-auth as AUTH_URL, from which next-auth makes
    // every URL (SSO's redirect URI included); without it, the request's Host / X-Forwarded-* name us.
    trustHost: true,
    session: { strategy: "jwt", maxAge: sessionCookieMaxAgeSeconds() },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      Credentials({
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, request) {
          if (!(await passwordSignInAllowed({ email: credentials.email, clientAddress: clientAddressOf(request) })))
            throw new SignInSsoOnly();
          const outcome = await attemptSignIn({
            email: credentials.email,
            password: credentials.password,
            clientAddress: clientAddressOf(request),
          });
          if (outcome.ok) {
            const user: User & z.infer<typeof SignedInUserSchema> = { ...outcome.user };
            return user;
          }
          if (outcome.reason === "locked") throw new SignInLocked(outcome.retryAt);
          throw new SignInInvalid();
        },
      }),
      ...(sso ? [oidcProvider(sso)] : []),
    ],
    callbacks: {
      // The provider vouched for someone: link (or create) the user and open the session, or refuse with a
      // reason the sign-in page explains. The password sign-in has done all of that in authorize already.
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        const outcome = await signInWithOidc({ claims: profile ?? {}, clientAddress });
        if (!outcome.ok) return `/login?${new URLSearchParams({ sso: outcome.reason })}`;
        Object.assign(user, outcome.user);
        return true;
      },
      // Every callbackUrl next-auth is given (the sign-in form's field, its cookie, signOut's redirectTo):
      // a path of this very origin, or the queue. next-auth's default lets `/\t/evil.example` through.
      redirect({ url, baseUrl }) {
        // A refused single sign-on goes back to the sign-in page with its reason (never a callbackUrl target).
        if (SSO_REFUSAL_PATH.test(url)) return `${baseUrl}${url}`;
        return `${baseUrl}${sameOriginPath(url, baseUrl)}`;
      },
      jwt({ token, user, trigger }) {
        if (trigger === "signIn" && user) {
          const signedIn = SignedInUserSchema.parse(user);
          const now = Date.now();
          const claims: SessionClaims = {
            sub: signedIn.id,
            email: signedIn.email,
            name: signedIn.name,
            role: signedIn.role,
            sv: signedIn.sessionVersion,
            sid: signedIn.sessionId,
            act: now,
            sia: now,
          };
          return claims;
        }
        // Every later read of the session: an idle or expired session is ended (its cookie is cleared).
        const claims = SessionClaimsSchema.safeParse(token);
        if (!claims.success || sessionEnded(claims.data) !== null) return null;
        return token;
      },
      session({ session, token }) {
        const claims = SessionClaimsSchema.safeParse(token);
        return Object.assign(session, { claims: claims.success ? claims.data : null });
      },
    },
    events: {
      // next-auth's own sign-out endpoint (POST /api/auth/signout): the session row goes too. The
      // dashboard's sign-out (/api/session/logout) ends and audits it before calling signOut.
      async signOut(message) {
        const claims = "token" in message ? SessionClaimsSchema.safeParse(message.token) : null;
        if (claims?.success) await forgetUserSession(claims.data.sid);
      },
    },
    logger: {
      error(error) {
        // A refused sign-in is an expected answer (and is in the audit log), not a server error.
        if (error instanceof CredentialsSignin) return;
        // A single sign-on answer that failed its checks (state, nonce, PKCE, signature) is refused, not a fault.
        // (By next-auth's `type`: class names do not survive the production build's minifier.)
        const type = error instanceof AuthError ? error.type : null;
        if (type === "CallbackRouteError" || type === "OAuthCallbackError" || type === "InvalidCheck") {
          const cause =
            error.cause && typeof error.cause === "object" && "err" in error.cause ? error.cause.err : error.cause;
          log("warn", "sso sign-in refused", { errorType: type, cause: cause instanceof Error ? cause.message : null });
          return;
        }
        log("error", "auth error", { error: error.message, errorName: error.name });
      },
      warn(code) {
        log("warn", "auth warning", { code });
      },
      debug() {},
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);
