// The transfer log: the period's decided transfers as a sorted, paged table above the download, and Enter in
// the form downloads the CSV.
import { randomUUID } from "node:crypto";
import { createPharmacist, createSender, sendTransfer, signIn, transferRequest } from "./dashboard-helpers";
import { expect, test } from "./page-guard";

test.describe.configure({ timeout: 120_000 });

test("the decided transfers of the period show as a table that sorts and pages; Enter downloads the CSV", async ({
  page,
  request,
}) => {
  const pharmacist = await createPharmacist("Logan Ledger, PharmD");
  const partner = await createSender();
  // 26 approvals, a page and one more, under names that sort after everyone else's.
  const tag = randomUUID()
    .replace(/[^a-z]/g, "")
    .slice(0, 6);
  const names = Array.from({ length: 26 }, (_, i) => `Zzzzzz${tag}${String(i).padStart(2, "0")}`);
  const ids: string[] = [];
  for (const lastName of names)
    ids.push(
      await sendTransfer(
        request,
        partner,
        transferRequest((r) => {
          r.patient.name.lastName = lastName;
        }),
      ),
    );
  await signIn(page, pharmacist, "/transfers/log");
  const sameOrigin = { "sec-fetch-site": "same-origin", "content-type": "application/json" };
  for (const id of ids) {
    const res = await page.request.post(`/api/transfers/${id}/approve`, { headers: sameOrigin, data: {} });
    expect(res.status(), await res.text()).toBe(200);
  }
  await page.reload();

  const table = page.getByRole("table", { name: /Decided transfers of the period/ });
  const firstRow = table.getByRole("row").nth(1);
  // Newest decision first.
  await expect(firstRow).toContainText(names[25]!);
  await expect(firstRow.getByRole("link", { name: new RegExp(names[25]!) })).toHaveAttribute(
    "href",
    `/transfers/${ids[25]}`,
  );

  // By patient, then the other way round: our names come last, then first.
  const patient = table.getByRole("columnheader", { name: /Patient/ });
  await patient.getByRole("button").click();
  await expect(patient).toHaveAttribute("aria-sort", "ascending");
  await patient.getByRole("button").click();
  await expect(patient).toHaveAttribute("aria-sort", "descending");
  await expect(firstRow).toContainText(names[25]!);
  await expect(table.getByRole("row").nth(25)).toContainText(names[1]!);

  // The next page begins where this one ended.
  const pages = page.getByRole("navigation", { name: "Transfer log pages" });
  await pages.getByRole("button", { name: "Next page" }).click();
  await expect(pages).toContainText(/Page 2 of \d+/);
  await expect(firstRow).toContainText(names[0]!);
  await pages.getByRole("button", { name: "Previous page" }).click();
  await expect(firstRow).toContainText(names[25]!);

  // Enter in a field of the form downloads the CSV of the same period.
  const download = page.waitForEvent("download");
  await page.getByLabel("Last day (included)").press("Enter");
  expect((await download).suggestedFilename()).toMatch(/^transfers-.*\.csv$/);
});
