import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium, HOW_TO_GET_CHROMIUM } from "./tests/support/chromium";

const executablePath = findChromium();
if (!executablePath) throw new Error(HOW_TO_GET_CHROMIUM);

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  // CI retries a failed browser test once: a test that then passes is reported as flaky, by name, in
  // `npm test`'s output (scripts/test.ts), so a timing race in a test is seen without blocking a landing;
  // a failure that repeats still fails. Locally there are no retries.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]] : [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
});
