// What the service and the test suite write into the working tree is ignored by git, so that `.ci/run`'s
// drift check sees only real changes, and a backup (patient data) is never committed by accident.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe(".gitignore", () => {
  it.each([
    "backups/rx-transfer-20260101T000000Z.rxbackup.gz",
    ".data/auth-secret",
    ".next/BUILD_ID",
    "test-results/playwright.json",
    "playwright-report/index.html",
    "generated/prisma/client.ts",
    "next-env.d.ts",
  ])("ignores %s", (file) => {
    const result = spawnSync("git", ["check-ignore", "--no-index", "-q", file], { cwd: ROOT });
    expect(result.status, file).toBe(0);
  });
});
