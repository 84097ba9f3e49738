import { test as base, expect } from "@playwright/test";

// The server's address is known only after global setup has started it.
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  baseURL: async ({}, provide) => {
    await provide(process.env.E2E_BASE_URL);
  },
});

export { expect };
