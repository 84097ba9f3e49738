// The alert jobs of the worker (lib/callbacks/worker.ts runs them beside the callback deliveries): the send
// task, and a scan every ALERT_SCAN_SECONDS in every worker process. Running the scan in every worker is
// safe: claimDueAlerts dedupes through the database.
import type { Task, TaskList } from "graphile-worker";
import { z } from "zod";
import { claimDueAlerts, SEND_ALERT_TASK } from "@/lib/alerts/claim-due-alerts";
import { sendAlertEmail } from "@/lib/alerts/send-alert-email";
import {
  claimOverdueVerifications,
  SEND_VERIFY_OVERDUE_TASK,
} from "@/lib/immediate-confirm/claim-overdue-verifications";
import { sendVerifyOverdueEmail } from "@/lib/immediate-confirm/send-verify-overdue-email";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";

const SendPayload = z.object({
  transferId: z.string().min(1).max(64),
  thresholdMinutes: z.number().int().min(1).max(1440),
});

const sendTask: Task = async (payload, helpers) => {
  const parsed = SendPayload.safeParse(payload);
  if (!parsed.success) {
    log("error", "alert job with an unreadable payload dropped", { jobId: helpers.job.id });
    return;
  }
  try {
    const result = await sendAlertEmail(parsed.data);
    log("info", "alert email", {
      transferId: parsed.data.transferId,
      thresholdMinutes: parsed.data.thresholdMinutes,
      result,
    });
  } catch (err) {
    log("warn", "alert email failed; it will be retried", {
      transferId: parsed.data.transferId,
      attempt: helpers.job.attempts,
      ...errorFields(err),
    });
    throw err;
  }
};

const VerifyOverduePayload = z.object({ transferId: z.string().min(1).max(64) });

const sendVerifyOverdueTask: Task = async (payload, helpers) => {
  const parsed = VerifyOverduePayload.safeParse(payload);
  if (!parsed.success) {
    log("error", "verification alert job with an unreadable payload dropped", { jobId: helpers.job.id });
    return;
  }
  try {
    const result = await sendVerifyOverdueEmail(parsed.data);
    log("info", "verification alert email", { transferId: parsed.data.transferId, result });
  } catch (err) {
    log("warn", "verification alert email failed; it will be retried", {
      transferId: parsed.data.transferId,
      attempt: helpers.job.attempts,
      ...errorFields(err),
    });
    throw err;
  }
};

export const ALERT_TASKS: TaskList = {
  [SEND_ALERT_TASK]: sendTask,
  [SEND_VERIFY_OVERDUE_TASK]: sendVerifyOverdueTask,
};

/** Scans now and every ALERT_SCAN_SECONDS; only where email is configured (the banner needs no worker). */
export function startAlertScanner(): { stop(): void } {
  const settings = env();
  if (!settings.SMTP_URL || settings.ALERT_EMAILS.length === 0) return { stop: () => {} };
  if (settings.SMTP_ALLOW_PLAINTEXT)
    log("warn", "SMTP_ALLOW_PLAINTEXT=true: alert email (and the SMTP login) may be sent without TLS", {
      fix: "use smtps:// or a server that offers STARTTLS, and unset SMTP_ALLOW_PLAINTEXT",
    });
  let running = false;
  const scan = () => {
    if (running) return;
    running = true;
    claimDueAlerts()
      .then((queued) => queued > 0 && log("info", "alert emails queued", { queued }))
      .then(() => claimOverdueVerifications())
      .then((raised) => raised.length > 0 && log("info", "verification alerts queued", { queued: raised.length }))
      .catch((err: unknown) => log("warn", "alert scan failed", errorFields(err)))
      .finally(() => (running = false));
  };
  scan();
  const timer = setInterval(scan, settings.ALERT_SCAN_SECONDS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
