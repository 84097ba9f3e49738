// Pharmacists under the soak: signed-in dashboard users approving and rejecting RECEIVED transfers through
// the dashboard's own HTTP API (`POST /api/transfers/{referenceID}/approve|reject`), as the review screen
// does: session cookie, JSON body, and the Origin header a browser sends with a same-origin POST (which
// the CSRF guard in proxy.ts accepts). A refused or cut connection, a timeout or a 503 is "not
// acknowledged": the same decision is sent again; a 409 "already decided" naming this pharmacist and this
// decision then tells us the earlier attempt had committed. Now and then two pharmacists decide the same
// transfer at the same moment (one approves, the other rejects): exactly one may win.
import { randomInt } from "node:crypto";
import { ERROR_TYPES } from "@/lib/interface";
import { signInOverHttp } from "@/tests/support/dashboard-session";
import type { SentTransfer } from "./senders";
import { sleep, timedFetch } from "./util";

export type Pharmacist = {
  index: number;
  id: string;
  email: string;
  password: string;
  name: string;
  cookie: string | null;
};

export type DecisionKind = "approve" | "reject";
export type DecisionResult =
  /** A 2xx answer. */
  | "acked"
  /** No answer at first, then 409 "already decided" by this pharmacist with this decision: it had committed. */
  | "confirmed-after-retry"
  /** The other pharmacist of a race won (409 naming them). */
  | "lost-race"
  /** Never answered before the load ended: it may or may not have committed. */
  | "unresolved"
  | "anomaly";

export type DecisionAttempt = {
  pharmacistId: string;
  pharmacistName: string;
  kind: DecisionKind;
  body: Record<string, unknown>;
  result: DecisionResult | "pending";
  ackedAt: number | null;
  callbackId: string | null;
};

export type DecisionTarget = {
  referenceID: string;
  transfer: SentTransfer;
  raced: boolean;
  attempts: DecisionAttempt[];
};

export type DecisionStats = {
  requests: number;
  ok2xx: number;
  status409: number;
  status503: number;
  connectionErrors: number;
  timeouts: number;
  status500: number;
  status401: number;
  otherStatus: Record<string, number>;
  retries: number;
  races: number;
  signIns: number;
  anomalies: string[];
};

export function newDecisionStats(): DecisionStats {
  return {
    requests: 0,
    ok2xx: 0,
    status409: 0,
    status503: 0,
    connectionErrors: 0,
    timeouts: 0,
    status500: 0,
    status401: 0,
    otherStatus: {},
    retries: 0,
    races: 0,
    signIns: 0,
    anomalies: [],
  };
}

export type PharmacistControl = {
  baseUrl: string;
  stopNew: () => boolean;
  giveUpAt: () => number;
  /** The next acknowledged transfer nobody has taken yet. */
  take: () => DecisionTarget | undefined;
};

const pick = <T>(items: readonly T[]): T => items[randomInt(0, items.length)]!;

// The schedule comes from the drug; the demo drugs include Schedule IV ones (tramadol, zolpidem), whose approval
// needs the one-time-transfer confirmation, which a pharmacist gives after checking.
function approveBody(n: number): Record<string, unknown> {
  const dice = randomInt(0, 10);
  if (dice < 4) return { oneTimeTransferConfirmed: true };
  if (dice < 6)
    return {
      oneTimeTransferConfirmed: true,
      localRxNumber: `L-${n}-${randomInt(0, 1e6)}`,
      note: "soak: approved with details",
    };
  if (dice < 8) return { oneTimeTransferConfirmed: true, localRxNumber: `LX${randomInt(0, 1e9)}` };
  return { oneTimeTransferConfirmed: true, note: "", localRxNumber: "" };
}

function rejectBody(referenceID: string): Record<string, unknown> {
  return { errorType: pick(ERROR_TYPES), description: `soak: rejected ${referenceID} (prescription.rxNumber checked)` };
}

function cookieFrom(headers: Headers): string | null {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    if (pair?.startsWith("authjs.session-token=") && pair.length > "authjs.session-token=".length) return pair;
  }
  return null;
}

export async function signIn(baseUrl: string, p: Pharmacist, stats: DecisionStats): Promise<boolean> {
  stats.signIns++;
  try {
    const answer = await signInOverHttp(baseUrl, p.email, p.password);
    p.cookie = answer.sessionCookie;
  } catch {
    p.cookie = null;
  }
  return p.cookie !== null;
}

type Problem = { reason?: string; decidedBy?: string; decision?: string };

async function decide(
  ctl: PharmacistControl,
  stats: DecisionStats,
  p: Pharmacist,
  target: DecisionTarget,
  attempt: DecisionAttempt,
): Promise<void> {
  const expected = attempt.kind === "approve" ? "APPROVED" : "REJECTED";
  let unanswered = false;
  const note = (text: string) =>
    stats.anomalies.push(`decision ${target.referenceID} by ${p.name} (${attempt.kind}): ${text}`);
  for (let first = true; ; first = false) {
    if (!first) {
      if (Date.now() > ctl.giveUpAt()) {
        attempt.result = "unresolved";
        return;
      }
      await sleep(200 + randomInt(0, 600));
      stats.retries++;
    }
    if (!p.cookie && !(await signIn(ctl.baseUrl, p, stats))) {
      unanswered = true;
      continue;
    }
    stats.requests++;
    const answer = await timedFetch(
      `${ctl.baseUrl}/api/transfers/${encodeURIComponent(target.referenceID)}/${attempt.kind}`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          origin: ctl.baseUrl,
          cookie: p.cookie!,
        },
        body: JSON.stringify(attempt.body),
      },
    );
    if (answer.kind === "error") {
      if (answer.timeout) stats.timeouts++;
      else stats.connectionErrors++;
      unanswered = true;
      continue;
    }
    const renewed = cookieFrom(answer.headers);
    if (renewed) p.cookie = renewed;
    const { status, text } = answer;
    if (status >= 200 && status < 300) {
      stats.ok2xx++;
      let body: { referenceID?: string; decision?: string; decidedBy?: string; callbackId?: string };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = {};
      }
      if (
        body.referenceID !== target.referenceID ||
        body.decision !== expected ||
        body.decidedBy !== p.name ||
        !body.callbackId
      ) {
        note(`2xx that does not describe this decision: ${text.slice(0, 300)}`);
      }
      attempt.result = "acked";
      attempt.ackedAt = Date.now();
      attempt.callbackId = body.callbackId ?? null;
      return;
    }
    if (status === 409) {
      stats.status409++;
      let problem: Problem = {};
      try {
        problem = JSON.parse(text) as Problem;
      } catch {
        // judged below
      }
      if (
        problem.reason === "already_decided" &&
        problem.decidedBy === p.name &&
        problem.decision === expected &&
        unanswered
      ) {
        attempt.result = "confirmed-after-retry";
      } else if (problem.reason === "already_decided" && target.raced && problem.decidedBy !== p.name) {
        attempt.result = "lost-race";
      } else {
        attempt.result = "anomaly";
        note(`unexpected 409: ${text.slice(0, 300)}`);
      }
      return;
    }
    if (status === 503) {
      stats.status503++;
      unanswered = true;
      continue;
    }
    if (status === 401) {
      // A session that stopped working mid-run is a finding; sign in again and carry on.
      stats.status401++;
      note(`401 with a session that was working: ${text.slice(0, 200)}`);
      p.cookie = null;
      unanswered = true;
      continue;
    }
    if (status === 500) {
      stats.status500++;
      note(`500: ${text.slice(0, 300)}`);
      unanswered = true;
      continue;
    }
    stats.otherStatus[String(status)] = (stats.otherStatus[String(status)] ?? 0) + 1;
    attempt.result = "anomaly";
    note(`unexpected ${status}: ${text.slice(0, 300)}`);
    return;
  }
}

function newAttempt(p: Pharmacist, kind: DecisionKind, body: Record<string, unknown>): DecisionAttempt {
  return { pharmacistId: p.id, pharmacistName: p.name, kind, body, result: "pending", ackedAt: null, callbackId: null };
}

export async function runPharmacist(opts: {
  ctl: PharmacistControl;
  stats: DecisionStats;
  me: Pharmacist;
  colleagues: Pharmacist[];
  thinkMs: number;
}): Promise<void> {
  const { ctl, stats, me } = opts;
  let n = 0;
  while (!ctl.stopNew()) {
    const target = ctl.take();
    if (!target) {
      await sleep(100);
      continue;
    }
    n++;
    if (opts.colleagues.length > 0 && randomInt(0, 100) < 5) {
      // Two pharmacists on the same transfer at the same moment.
      stats.races++;
      target.raced = true;
      const other = pick(opts.colleagues);
      const mine = newAttempt(me, "approve", approveBody(n));
      const theirs = newAttempt(other, "reject", rejectBody(target.referenceID));
      target.attempts.push(mine, theirs);
      await Promise.all([decide(ctl, stats, me, target, mine), decide(ctl, stats, other, target, theirs)]);
    } else {
      const kind: DecisionKind = randomInt(0, 10) < 6 ? "approve" : "reject";
      const attempt = newAttempt(me, kind, kind === "approve" ? approveBody(n) : rejectBody(target.referenceID));
      target.attempts.push(attempt);
      await decide(ctl, stats, me, target, attempt);
    }
    if (opts.thinkMs > 0) await sleep(randomInt(0, opts.thinkMs * 2));
  }
}
