// The dashboard as the pharmacist feels it, in Chromium against `npm start` over the seeded table:
// the time from a click on a queue row to a usable review screen, and from the click on "Confirm approval"
// to the approved state. Each sample also times, in the same browser and session, the API call alone that
// the step stands on (the review's JSON, an approval over the API), so each figure has a ratio. Beside them:
// the server's response time for the review screen's document and the queue's (Navigation Timing, in
// turn), and the queue's cumulative layout shift from the page's own PerformanceObserver, at desktop width
// and at 320 px, each load watched through one of the queue's refreshes.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferResponse } from "@/lib/interface";
import { CHROMIUM_ARGS, findChromium, HOW_TO_GET_CHROMIUM } from "@/tests/support/chromium";
import { LAYOUT_SHIFT_SCRIPT, readLayoutShift } from "@/tests/support/layout-shift";
import { freePort, TEST_SECRETS } from "@/tests/support/server";
import {
  percentile,
  processTreeCpuMs,
  progress,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  waitForHttp,
} from "./support";

type Timing = { p50: number; p95: number; max: number };
type Step = {
  ours: Timing;
  /** The API call alone (same browser, same session): GET /api/transfers/:id, or POST …/approve. */
  baseline: Timing;
  /** ours p50 / baseline p50. */
  ratio: number;
  /** Requests the page sent between the click and the state (HTTP round trips the person waits on). */
  requestsPerStep: number;
  /** What those requests were, in the last sample (method and path). */
  requestsOfLastSample: string[];
  samples: number[];
};
export type DashboardResult = {
  transfersInTable: number;
  samples: number;
  warmUp: number;
  open: Step;
  approve: Step;
  /** From the same click: the decision's notice (the POST answered), before the record is re-read. */
  approveNotice: Timing;
  /**
   * The server's response time of the document request (Navigation Timing responseStart - requestStart), one
   * of each per sample in turn: the review screen of a pending transfer, and the queue's first page
   * (unfiltered, as a pharmacist opens it). ratio: review p50 / queue p50.
   */
  documentServer: { review: Timing; queue: Timing; ratio: number };
  /** The queue's CLS (largest session window, shifts after input left out), per load, watched for watchMs. */
  queueLayoutShift: { loads: number; watchMs: number; desktop: ShiftFigures; narrow: ShiftFigures };
  /** GET /api/overview from the signed-in page (a pharmacist's: without the partner figures), after the samples. */
  overview: Timing;
  /** The server's whole process tree, per sample (the open, the approval, both baseline calls and the page's pollers). */
  serverCpuMsPerSample: number;
  loadAverage: { start: number[]; end: number[] };
  /** The whole part: server start, the /v1 sends, sign-in, every sample (what it adds to a bench run). */
  seconds: number;
  /** Of which: `npm start` until it answers (migrations, worker, Next). */
  serverStartSeconds: number;
};

type Pending = { referenceID: string; lastName: string; firstName: string };
type ShiftFigures = { p50: number; max: number; samples: number[] };

/** Loads `path` and answers its document's server response time (responseStart - requestStart, ms). */
async function documentServerMs(page: Page, path: string): Promise<number> {
  await page.goto(path);
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return nav.responseStart - nav.requestStart;
  });
}

/** The queue's CLS at one viewport: `loads` fresh loads, each watched through one refresh (REFRESH_MS 5 s). */
async function queueLayoutShift(context: BrowserContext, loads: number, watchMs: number): Promise<ShiftFigures> {
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

/** Letters only: patient names must pass the wire format's name checks. */
function letters(n: number): string {
  let s = "";
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
}

/** Pending transfers sent the way a sender sends them (POST /v1/transfer with its key), each a patient of its own. */
async function sendPending(baseUrl: string, apiKey: string, pharmacyNpi: string, count: number): Promise<Pending[]> {
  const run = randomBytes(3)
    .toString("hex")
    .replace(/[^a-f]/g, "x");
  const sent: Pending[] = [];
  for (let i = 0; i < count; i++) {
    const request = buildTransferRequest({}, { receivingNpi: pharmacyNpi });
    request.metadata.requestID = `dash-${run}-${i}`;
    request.prescription.rxNumber = `DASH${randomBytes(5).toString("hex")}`;
    request.patient.name.lastName = `Dash${run}${letters(i)}`;
    // A patient of its own by both of the history's match rules (name + DOB, the sender's patient id).
    request.metadata.patientReferenceID = `dash-${run}-${i}`;
    const res = await fetch(`${baseUrl}/v1/transfer`, {
      method: "POST",
      headers: { authorization: `senderKey ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    if (res.status !== 200) throw new Error(`bench: /v1/transfer answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as TransferResponse;
    sent.push({
      referenceID: body.metadata.referenceID,
      lastName: request.patient.name.lastName,
      firstName: request.patient.name.firstName,
    });
  }
  return sent;
}

type Watch = { kind: "usable"; referenceID: string; lastName: string } | { kind: "approved"; name: string };

/**
 * Arms a watcher in the page: from the next click event (its own timestamp: when the browser took the click)
 * to the first animation frame after the DOM shows the state, in ms of the page's clock. "usable": the review
 * of that transfer, its heading naming the patient, the allergy banner and an enabled Approve button, all
 * laid out and visible. "approved": the status badge reads Approved and the record names the approver.
 */
async function arm(page: Page, watch: Watch): Promise<void> {
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

async function measured(page: Page, timeoutMs = 60_000): Promise<{ ms: number; noticeMs: number | null }> {
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
async function apiAlone(page: Page, url: string, method: "GET" | "POST"): Promise<number> {
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

const round = (n: number) => Math.round(n * 10) / 10;
const timing = (xs: number[]): Timing => ({
  p50: round(percentile(xs, 50)),
  p95: round(percentile(xs, 95)),
  max: round(Math.max(...xs)),
});

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
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // `npm start` (its callback worker included) on core 0, as the intake bench runs it.
  const server = startProcess(
    0,
    process.execPath,
    [...SERVER_NODE_FLAGS, "--import", "tsx", "scripts/serve.ts", "start"],
    {
      NODE_ENV: "production",
      // The demo pharmacy's NPI, which the fixtures send to (npm start refuses it otherwise).
      ALLOW_DEMO_PHARMACY: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: opts.databaseUrl,
      ...TEST_SECRETS,
      PHARMACY_NPI: opts.pharmacyNpi,
      PORT: String(port),
      LOG_LEVEL: "warn",
      CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
      CALLBACK_ALLOW_INSECURE_HTTP: "true",
      V1_RATE_LIMIT_PER_MINUTE: "1000000",
    },
  );
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    await waitForHttp(`${baseUrl}/v1/openapi.json`, server);
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
      if (i === opts.warmUp) cpuStart = processTreeCpuMs(server.pid!);
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
    const serverCpuMsPerSample = (processTreeCpuMs(server.pid!) - cpuStart) / opts.samples;
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
    const step = (s: { ours: number[]; baseline: number[]; requests: string[][] }): Step => {
      const ours = timing(s.ours);
      const baseline = timing(s.baseline);
      return {
        ours,
        baseline,
        ratio: Math.round((ours.p50 / baseline.p50) * 100) / 100,
        requestsPerStep: round(s.requests.reduce((n, r) => n + r.length, 0) / opts.samples),
        requestsOfLastSample: s.requests.at(-1) ?? [],
        samples: s.ours.map(round),
      };
    };
    return {
      transfersInTable: opts.transfersInTable,
      samples: opts.samples,
      warmUp: opts.warmUp,
      open: step(open),
      approve: step(approve),
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
    await stopProcess(server);
  }
}
