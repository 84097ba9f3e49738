// The dashboard part's measurements inside the page, with the page's own clock: a watcher armed before a
// click that resolves on the first frame after the DOM shows a state, one API call alone, a document's server
// time (Navigation Timing) and the queue's layout shift.
import type { BrowserContext, Page } from "@playwright/test";
import { readLayoutShift } from "@/tests/support/layout-shift";
import type { ShiftFigures } from "./dashboard-result";
import { percentile } from "./support";

/** Loads `path` and answers its document's server response time (responseStart - requestStart, ms). */
export async function documentServerMs(page: Page, path: string): Promise<number> {
  await page.goto(path);
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return nav.responseStart - nav.requestStart;
  });
}

/** The queue's CLS at one viewport: `loads` fresh loads, each watched through one refresh (REFRESH_MS 5 s). */
export async function queueLayoutShift(context: BrowserContext, loads: number, watchMs: number): Promise<ShiftFigures> {
  const page = await context.newPage();
  try {
    const samples: number[] = [];
    for (let i = 0; i < loads; i++) {
      await page.goto("/transfers");
      await page.locator("tbody a[data-row-link]").first().waitFor();
      await page.waitForTimeout(watchMs);
      samples.push(Math.round((await readLayoutShift(page)) * 10_000) / 10_000);
    }
    return { p50: percentile(samples, 50), max: Math.max(...samples), samples };
  } finally {
    await page.close();
  }
}

type Watch = { kind: "usable"; referenceID: string; lastName: string } | { kind: "approved"; name: string };

/**
 * Arms a watcher in the page: from the next click event (its own timestamp: when the browser took the click)
 * to the first animation frame after the DOM shows the state, in ms of the page's clock. "usable": the review
 * of that transfer, its heading naming the patient, the allergy banner and an enabled Approve button, all
 * laid out and visible. "approved": the status badge reads Approved and the record names the approver.
 */
export async function arm(page: Page, watch: Watch): Promise<void> {
  await page.evaluate((w) => {
    const visible = (el: Element | null | undefined): el is HTMLElement =>
      Boolean(el && (el as HTMLElement).checkVisibility());
    const holds = (): boolean => {
      if (w.kind === "usable") {
        if (location.pathname !== `/transfers/${w.referenceID}`) return false;
        const heading = [...document.querySelectorAll("h1")].find((h) => h.textContent?.includes(w.lastName));
        const approve = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Approve");
        return (
          visible(heading) &&
          visible(document.querySelector('section[aria-label="Allergies"]')) &&
          visible(approve) &&
          !(approve as HTMLButtonElement).disabled
        );
      }
      const status = document.querySelector('[aria-label="Status"]');
      const record = [...document.querySelectorAll("p")].find((p) =>
        p.textContent?.startsWith(`Approved by ${w.name} at`),
      );
      return status?.textContent?.trim() === "Approved" && visible(record);
    };
    const notice = (): boolean =>
      [...document.querySelectorAll('[role="status"]')].some((s) => s.textContent?.startsWith("Approved. CONFIRMED"));
    const state = window as unknown as { __bench?: Promise<{ ms: number; noticeMs: number | null }> };
    state.__bench = new Promise((resolve) => {
      let clickedAt: number | null = null;
      let noticeMs: number | null = null;
      let done = false;
      const check = () => {
        if (clickedAt === null || done) return;
        if (noticeMs === null && notice()) noticeMs = performance.now() - clickedAt;
        if (!holds()) return;
        done = true;
        observer.disconnect();
        requestAnimationFrame(() => resolve({ ms: performance.now() - clickedAt!, noticeMs }));
      };
      const observer = new MutationObserver(check);
      document.addEventListener("click", (e) => ((clickedAt = e.timeStamp), check()), { capture: true, once: true });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }, watch);
}

export async function measured(page: Page, timeoutMs = 60_000): Promise<{ ms: number; noticeMs: number | null }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error("bench: the dashboard did not reach the state in time")), timeoutMs)),
  );
  try {
    return await Promise.race([
      page.evaluate(() => (window as unknown as { __bench: Promise<{ ms: number; noticeMs: number | null }> }).__bench),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** One API call from the page itself (its cookies, its connection), timed with the page's clock. */
export async function apiAlone(page: Page, url: string, method: "GET" | "POST"): Promise<number> {
  const { ms, status } = await page.evaluate(
    async ({ url, method }) => {
      const t = performance.now();
      const res = await fetch(url, {
        method,
        headers: { accept: "application/json", ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        body: method === "POST" ? "{}" : undefined,
        cache: "no-store",
      });
      await res.text();
      return { ms: performance.now() - t, status: res.status };
    },
    { url, method },
  );
  if (status !== 200) throw new Error(`bench: ${method} ${url} answered ${status}`);
  return ms;
}
