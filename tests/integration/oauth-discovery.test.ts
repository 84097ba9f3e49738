// A sender's OAuth library finds our token endpoint by RFC 8414 discovery, with no dashboard session and no
// redirect to the sign-in page: oauth4webapi (a strict, widely used client) discovers the metadata, takes a
// token by the client credentials grant with HTTP Basic, and the token opens /v1/transfer.
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { createTestPartner, freshRequest, send } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
let partner: CreatedPartner;
// The test server speaks plain HTTP on loopback; oauth4webapi refuses http:// unless told otherwise.
const insecure = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  partner = await createTestPartner("Discovery");
});

describe("GET /.well-known/oauth-authorization-server", () => {
  it("is RFC 8414 metadata that oauth4webapi accepts, and its token endpoint issues a token /v1 takes", async () => {
    const issuer = new URL(baseUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    expect(as).toMatchObject({
      issuer: issuer.origin,
      token_endpoint: `${issuer.origin}/oauth/token`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });

    const client: oauth.Client = { client_id: partner.clientId };
    for (const auth of [oauth.ClientSecretBasic(partner.clientSecret), oauth.ClientSecretPost(partner.clientSecret)]) {
      const response = await oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams(), insecure);
      const token = await oauth.processClientCredentialsResponse(as, client, response);
      expect(token.token_type.toLowerCase()).toBe("bearer");
      const answer = await send(baseUrl, { body: freshRequest(), authorization: `Bearer ${token.access_token}` });
      expect(answer.status, answer.text).toBe(200);
    }
  });

  it("is public: no redirect to the sign-in page, JSON, cacheable", async () => {
    const res = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toMatch(/max-age=/);
  });

  it("names the https issuer behind a trusted TLS proxy (X-Forwarded-Proto), and ignores a client's own", async () => {
    const forged = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`, {
      headers: { "x-forwarded-proto": "https" },
    });
    expect(((await forged.json()) as { issuer: string }).issuer).toBe(`http://${new URL(baseUrl).host}`);
    const proxied = await startTestServer({ databaseUrl, env: { TRUSTED_PROXIES: "1", RUN_WORKER: "false" } });
    try {
      const res = await fetch(`${proxied.baseUrl}/.well-known/oauth-authorization-server`, {
        headers: { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9" },
      });
      const body = (await res.json()) as { issuer: string; token_endpoint: string };
      expect(body.issuer).toBe(`https://${new URL(proxied.baseUrl).host}`);
      expect(body.token_endpoint).toBe(`https://${new URL(proxied.baseUrl).host}/oauth/token`);
    } finally {
      await proxied.stop();
    }
  });
});
