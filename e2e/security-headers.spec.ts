import { expect, test } from "./fixtures";

test("pages carry a nonce CSP that their own scripts satisfy, and cannot be framed", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(msg.text())) violations.push(msg.text());
  });
  const response = await page.goto("/login");
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // The page hydrated (its scripts ran under the CSP): the form is interactive.
  await page.getByLabel("Email").fill("nobody@pharmacy.test");
  await expect(page.getByLabel("Email")).toHaveValue("nobody@pharmacy.test");
  await page.goto("/docs");
  expect(violations).toEqual([]);
});
