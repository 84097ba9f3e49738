import { expect, test } from "./fixtures";

test("the API docs page is readable and loads nothing from outside this server", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on("request", (req) => {
    if (!req.url().startsWith(baseURL!) && !req.url().startsWith("data:")) foreign.push(req.url());
  });
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Transfer");
  await expect(page.getByRole("heading", { name: "Authentication" })).toBeVisible();
  await expect(page.getByRole("region", { name: "POST /v1/transfer" })).toBeVisible();
  await expect(page.getByRole("region", { name: "GET /v1/transfer/{referenceID}" })).toBeVisible();
  await expect(page.getByRole("row", { name: /^DUPLICATE_REQUEST/ })).toBeVisible();
  // The field tables come from the zod schemas: a bound of the interface shows up as written there.
  const prescription = page.getByRole("region", { name: "Prescription" });
  await expect(prescription.getByRole("row", { name: /dawCode/ })).toContainText("0–9");
  await page.getByRole("link", { name: "Data shapes" }).click();
  await expect(page).toHaveURL(/#schemas$/);
  expect(foreign).toEqual([]);
});

test("the OpenAPI document is served as JSON", async ({ request }) => {
  const res = await request.get("/v1/openapi.json");
  expect(res.ok()).toBe(true);
  const doc = (await res.json()) as { openapi: string };
  expect(doc.openapi).toMatch(/^3\.1/);
});
