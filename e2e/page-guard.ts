// The browser tests' `test`, plus a guard on every page a test opens: a console error or a
// Content-Security-Policy violation fails the test, with the messages. Chromium reports a refused script or
// `new Function` as a console error too; the `securitypolicyviolation` event catches what it only reports.
import type { Page } from "@playwright/test";
import { expect, test as base } from "./fixtures";

function guard(page: Page, problems: string[]): void {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught error on ${page.url()}: ${error.message}`));
  page.on("console", (message) => {
    if (message.text().startsWith("securitypolicyviolation:")) problems.push(`${message.text()} on ${page.url()}`);
  });
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.warn(`securitypolicyviolation: ${event.violatedDirective} refused ${event.blockedURI || "inline"}`);
    });
  });
}

export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, provide) => {
      const problems: string[] = [];
      guard(page, problems);
      await provide(problems);
      expect(problems, "console errors and CSP violations").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
