// The dashboard as the pharmacist feels it, in Chromium against `npm start` over the seeded table:
// the time from a click on a queue row to a usable review screen, and from the click on "Confirm approval"
// to the approved state. Each sample also times, in the same browser and session, the API call alone that
// the step stands on (the review's JSON, an approval over the API), so each figure has a ratio. Beside them:
// the server's response time for the review screen's document and the queue's (Navigation Timing, in
// turn), and the queue's cumulative layout shift from the page's own PerformanceObserver, at desktop width
// and at 320 px, each load watched through one of the queue's refreshes. What happens inside the page:
// dashboard-page.ts; the figures reported: dashboard-result.ts.
import os from "node:os";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium, HOW_TO_GET_CHROMIUM } from "@/tests/support/chromium";
import { LAYOUT_SHIFT_SCRIPT } from "@/tests/support/layout-shift";
import { apiAlone, arm, documentServerMs, measured, queueLayoutShift } from "./dashboard-page";
import { round, stepOf, timing, type DashboardResult } from "./dashboard-result";
import { sendPending } from "./send-pending";
import { percentile, processTreeCpuMs, progress, startNpmStart, stopProcess } from "./support";

export async function benchDashboard(opts: {
  databaseUrl: string;
  apiKey: string;
  pharmacyNpi: string;
  transfersInTable: number;
  pharmacist: { email: string; password: string; name: string };
  samples: number;
  warmUp: number;
}): Promise<DashboardResult> {
  const started = Date.now();
  const executablePath = findChromium();
  if (!executablePath) throw new Error(HOW_TO_GET_CHROMIUM);
  // `npm start` (its callback worker included) on core 0, as the intake bench runs it.
  const server = await startNpmStart({
    databaseUrl: opts.databaseUrl,
    pharmacyNpi: opts.pharmacyNpi,
    env: { LOG_LEVEL: "warn", CALLBACK_ALLOW_PRIVATE_NETWORKS: "true", CALLBACK_ALLOW_INSECURE_HTTP: "true" },
  });
  const { baseUrl } = server;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    await server.ready;
    const serverStartSeconds = Math.round((Date.now() - started) / 1000);
    const total = opts.warmUp + opts.samples;
    // Two per sample: one opened and approved on screen, one for the API-alone baseline.
    const pending = await sendPending(baseUrl, opts.apiKey, opts.pharmacyNpi, total * 2);
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 } });
    // tsx compiles this file with esbuild's keepNames: the functions handed to page.evaluate call its __name helper.
    await context.addInitScript("globalThis.__name = (f) => f;");
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => void requests.push(`${r.method()} ${new URL(r.url()).pathname}`));

    // Signed in the way a pharmacist signs in: the login form.
    await page.goto("/transfers");
    await page.getByLabel("Email").fill(opts.pharmacist.email);
    await page.getByLabel("Password").fill(opts.pharmacist.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Transfer queue" }).waitFor();

    const open = { ours: [] as number[], baseline: [] as number[], requests: [] as string[][] };
    const approve = {
      ours: [] as number[],
      baseline: [] as number[],
      notice: [] as number[],
      requests: [] as string[][],
    };
    const documentMs = { review: [] as number[], queue: [] as number[] };
    const loadStart = os.loadavg().map(round);
    let cpuStart = 0;
    const done = progress(`dashboard: ${opts.warmUp} warm-up + ${opts.samples} samples (open a review, approve it)`, 1);
    for (let i = 0; i < total; i++) {
      const measuring = i >= opts.warmUp;
      if (i === opts.warmUp) cpuStart = processTreeCpuMs(server.child.pid!);
      const target = pending[2 * i]!;
      const other = pending[2 * i + 1]!;
      // The two documents in turn: the queue's first page, then a pending transfer's review screen (`other`,
      // which the API-alone approval below then decides; the screen claimed it for this pharmacist).
      const queueMs = await documentServerMs(page, "/transfers");
      const reviewMs = await documentServerMs(page, `/transfers/${other.referenceID}`);
      await page.getByText("You are reviewing this transfer.").waitFor();
      if (measuring) {
        documentMs.queue.push(queueMs);
        documentMs.review.push(reviewMs);
      }
      // The queue, searched to the transfer's patient (a name-prefix search over the whole table), settled.
      await page.goto(`/transfers?q=${encodeURIComponent(target.lastName)}`);
      const row = page.getByRole("link", { name: `${target.lastName}, ${target.firstName}`, exact: true });
      await row.waitFor();
      await page.waitForTimeout(300);
      const openAlone = await apiAlone(page, `/api/transfers/${other.referenceID}`, "GET");

      await arm(page, { kind: "usable", referenceID: target.referenceID, lastName: target.lastName });
      const openRequestsBefore = requests.length;
      await row.click();
      const opened = await measured(page);
      const openRequests = requests.slice(openRequestsBefore);
      // The screen settles (its claim taken) before the pharmacist decides, as a person reads before approving.
      await page.getByText("You are reviewing this transfer.").waitFor();
      await page.waitForTimeout(300);

      const approveAlone = await apiAlone(page, `/api/transfers/${other.referenceID}/approve`, "POST");
      await page.getByRole("button", { name: "Approve", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Approve transfer" });
      const confirm = dialog.getByRole("button", { name: "Confirm approval" });
      await confirm.waitFor();
      await arm(page, { kind: "approved", name: opts.pharmacist.name });
      const approveRequestsBefore = requests.length;
      await confirm.click();
      const approved = await measured(page);
      const approveRequests = requests.slice(approveRequestsBefore);
      if (approved.noticeMs === null) throw new Error("bench: the approval's notice was never shown");

      if (!measuring) continue;
      open.ours.push(opened.ms);
      open.baseline.push(openAlone);
      open.requests.push(openRequests);
      approve.ours.push(approved.ms);
      approve.baseline.push(approveAlone);
      approve.notice.push(approved.noticeMs);
      approve.requests.push(approveRequests);
    }
    const serverCpuMsPerSample = (processTreeCpuMs(server.child.pid!) - cpuStart) / opts.samples;
    const overviewMs: number[] = [];
    for (let i = 0; i < opts.warmUp + opts.samples; i++) {
      const ms = await apiAlone(page, "/api/overview", "GET");
      if (i >= opts.warmUp) overviewMs.push(ms);
    }
    done();
    const shiftLoads = Math.max(2, Math.min(5, Math.ceil(opts.samples / 8)));
    const watchMs = 6_000;
    const doneShift = progress(`dashboard: the queue's layout shift, ${shiftLoads} loads at 1440 px and at 320 px`, 1);
    const storageState = await context.storageState();
    const shiftAt = async (viewport: { width: number; height: number }) => {
      const shiftContext = await browser.newContext({ baseURL: baseUrl, viewport, storageState });
      await shiftContext.addInitScript(LAYOUT_SHIFT_SCRIPT);
      try {
        return await queueLayoutShift(shiftContext, shiftLoads, watchMs);
      } finally {
        await shiftContext.close();
      }
    };
    const desktopShift = await shiftAt({ width: 1440, height: 900 });
    const narrowShift = await shiftAt({ width: 320, height: 640 });
    doneShift();
    return {
      transfersInTable: opts.transfersInTable,
      samples: opts.samples,
      warmUp: opts.warmUp,
      open: stepOf(open, opts.samples),
      approve: stepOf(approve, opts.samples),
      approveNotice: timing(approve.notice),
      documentServer: {
        review: timing(documentMs.review),
        queue: timing(documentMs.queue),
        ratio: Math.round((percentile(documentMs.review, 50) / percentile(documentMs.queue, 50)) * 100) / 100,
      },
      queueLayoutShift: { loads: shiftLoads, watchMs, desktop: desktopShift, narrow: narrowShift },
      overview: timing(overviewMs),
      serverCpuMsPerSample: round(serverCpuMsPerSample),
      loadAverage: { start: loadStart, end: os.loadavg().map(round) },
      seconds: Math.round((Date.now() - started) / 1000),
      serverStartSeconds,
    };
  } finally {
    await browser.close();
    await stopProcess(server.child);
  }
}
