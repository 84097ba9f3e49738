import { test as base, expect } from "@playwright/test";

// The server's address is known only after global setup has started it.
export const test = base.extend({
  baseURL: async ({}, provide) => {
    await provide(process.env.E2E_BASE_URL);
  },
});

export { expect };
