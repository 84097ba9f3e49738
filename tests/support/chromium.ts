// Which Chromium the browser tests drive: CHROMIUM_PATH, else Debian's, else Playwright's own download.
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

export const HOW_TO_GET_CHROMIUM =
  "No Chromium for the browser tests. Install Debian's (`sudo apt-get update && sudo apt-get install -y chromium`), " +
  "or point CHROMIUM_PATH at a Chromium or Chrome binary, or run `npx playwright install chromium` where downloads work.";

export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  try {
    const own = chromium.executablePath();
    return own && existsSync(own) ? own : null;
  } catch {
    return null;
  }
}
