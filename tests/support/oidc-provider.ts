// A real OpenID Connect provider for the single sign-on tests: `oidc-provider` (the certified Node
// implementation) on 127.0.0.1, with one confidential client and the accounts a test gives it. Its own
// development login page takes any login (the account id) and any password, then asks for consent.
// The issuer's port is chosen first (reserveOidcIssuer) so that the server under test can be started with
// OIDC_ISSUER before the provider, which needs the server's callback URL, is started on it.
import { createServer as createHttpsServer } from "node:https";
import type { Server } from "node:http";
import Provider from "oidc-provider";
import { freePort } from "./server";

/** The claims an account's ID token carries (`sub` is the login typed on the provider's page). */
export type OidcAccount = { sub: string; email: string; email_verified: boolean; name?: string } & Record<
  string,
  unknown
>;

export type RunningOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The server's OIDC_* settings for this provider. */
  env: Record<string, string>;
  addAccount(account: OidcAccount): void;
  stop(): Promise<void>;
};

export const OIDC_TEST_CLIENT_ID = "rx-transfer-dashboard";
export const OIDC_TEST_ROLE_CLAIM = "rx_role";

export type OidcReservation = {
  port: number;
  issuer: string;
  clientId: string;
  clientSecret: string;
  env: Record<string, string>;
};

/**
 * The provider's address and client secret, before it runs: the server under test starts with `env`. By
 * default http://127.0.0.1:<port>; `origin` names another (e.g. "https://idp.pharmacy.test", which the caller
 * resolves and serves with TLS: startOidcProvider's `tls`).
 */
export async function reserveOidcIssuer(opts: { origin?: string; clientId?: string } = {}): Promise<OidcReservation> {
  const port = await freePort();
  const issuer = `${opts.origin ?? "http://127.0.0.1"}:${port}`;
  const clientId = opts.clientId ?? OIDC_TEST_CLIENT_ID;
  const clientSecret = `secret-${crypto.randomUUID()}`;
  return {
    port,
    issuer,
    clientId,
    clientSecret,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
  };
}

export async function startOidcProvider(
  opts: OidcReservation & {
    redirectUri: string;
    accounts?: OidcAccount[];
    /** Serve https with this certificate (PEM) instead of plain http. */
    tls?: { key: string; cert: string };
  },
): Promise<RunningOidcProvider> {
  const accounts = new Map<string, OidcAccount>();
  for (const account of opts.accounts ?? []) accounts.set(account.sub, account);
  const { clientId, clientSecret } = opts;
  const provider = new Provider(opts.issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    // The ID token carries the scopes' claims (next-auth reads its profile from the ID token).
    conformIdTokenClaims: false,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", OIDC_TEST_ROLE_CLAIM] },
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account, sub: id }) };
    },
  });
  const tls = opts.tls;
  const server: Server = await new Promise((resolve) => {
    if (tls) {
      const s = createHttpsServer({ key: tls.key, cert: tls.cert }, provider.callback());
      s.listen(opts.port, "127.0.0.1", () => resolve(s));
    } else {
      const s = provider.listen(opts.port, "127.0.0.1", () => resolve(s));
    }
  });
  return {
    issuer: opts.issuer,
    clientId,
    clientSecret,
    env: opts.env,
    addAccount: (account) => void accounts.set(account.sub, account),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
