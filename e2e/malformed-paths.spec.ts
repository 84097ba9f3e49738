// A path whose percent-encoding does not decode is the caller's mistake: 400 in the caller's own shape
// (a page for people, problem+json for the dashboard API and /oauth, a TransferResponse for /v1), never
// a 500, whoever asks and however.
import type { APIResponse } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createPharmacist, createSender, signIn } from "./dashboard-helpers";
import { TransferResponseSchema } from "../lib/interface";

const PAGES = [
  "/transfers/%ZZ",
  "/transfers/%ZZ/record",
  "/transfers/%E0%A4%A",
  "/%ZZ",
  "/admin/partners/%C0%AF",
  "/login/%",
  "/docs%ZZ",
  "/_next/static/%ZZ",
];
const DASHBOARD_API = [
  "/api/transfers/%ZZ",
  "/api/transfers/%ZZ/status",
  "/api/admin/partners/%C0%AF",
  "/api/%",
  "/oauth/token%ZZ",
];
const TRANSFER_API = ["/v1/transfer/%ZZ", "/v1/%E0%A4%A", "/v1/transfer/%"];

async function expectPage(res: APIResponse, path: string) {
  expect(res.status(), path).toBe(400);
  expect(res.headers()["content-type"], path).toContain("text/html");
  expect(await res.text(), path).toContain("This address is not valid");
}

async function expectProblem(res: APIResponse, path: string) {
  expect(res.status(), path).toBe(400);
  expect(res.headers()["content-type"], path).toContain("application/problem+json");
  expect(await res.json(), path).toMatchObject({ status: 400, type: "urn:rx-transfer:problem:malformed_path" });
}

async function expectTransferError(res: APIResponse, path: string) {
  expect(res.status(), path).toBe(400);
  expect(res.headers()["content-type"], path).toContain("application/json");
  const body = TransferResponseSchema.parse(await res.json());
  expect(body.metadata.responseType, path).toBe("ERROR");
  expect(body.error?.type, path).toBe("SPEC_MISMATCH");
  expect(body.error?.description, path).toMatch(/percent-encoding/);
}

test("malformed paths answer 400 in each caller's shape, signed in or not, whatever the method", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Percy Cent, RPh");
  const partner = await createSender();
  const sender = { authorization: `senderKey ${partner.apiKey}` };
  const sameOrigin = { "sec-fetch-site": "same-origin", "content-type": "application/json" };
  await signIn(page, pharmacist);

  // `request` is anonymous; `page.request` carries the pharmacist's session.
  for (const client of [request, page.request]) {
    for (const path of PAGES) await expectPage(await client.get(path), path);
    for (const path of DASHBOARD_API) {
      await expectProblem(await client.get(path), path);
      await expectProblem(await client.post(path, { headers: sameOrigin, data: {} }), `POST ${path}`);
    }
    for (const path of TRANSFER_API) {
      await expectTransferError(await client.get(path, { headers: sender }), path);
      await expectTransferError(await client.post(path, { headers: sender, data: {} }), `POST ${path}`);
    }
  }
  await expectProblem(await page.request.delete("/api/transfers/%ZZ/claim", { headers: sameOrigin }), "DELETE claim");
  await expectProblem(
    await page.request.post("/api/transfers/%ZZ/approve", { headers: sameOrigin, data: {} }),
    "POST approve",
  );
});

test("a person who follows a malformed link gets a page saying so, with the ways back", async ({ page }) => {
  const pharmacist = await createPharmacist("Linda Link, PharmD");
  await signIn(page, pharmacist);
  const response = await page.goto("/transfers/%ZZ");
  expect(response?.status()).toBe(400);
  await expect(page).toHaveTitle(/Address not valid/);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "This address is not valid" })).toBeVisible();
  const ways = main.getByRole("navigation", { name: "Ways back" });
  await ways.getByRole("link", { name: "The transfer queue" }).click();
  await expect(page).toHaveURL(/\/transfers$/);
  await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible();
});
