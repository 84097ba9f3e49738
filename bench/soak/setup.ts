// What both soaks (one server, and several instances behind a balancer) set up the same way: this process's
// settings for writing into the soak database, the servers' settings, and the cast, made through the service's
// own lib code: two sending partners whose callbacks go to the soak receiver, and the pharmacists.
import { randomBytes } from "node:crypto";
import { disconnectDb } from "@/lib/db/prisma";
import { createPartner } from "@/lib/partners/create-partner";
import { createUser } from "@/lib/users/create-user";
import { TEST_SECRETS } from "@/tests/support/server";
import { setBenchEnv } from "../support";
import { runPharmacist, type DecisionStats, type DecisionTarget, type Pharmacist } from "./pharmacists";
import { runSender, type IntakeStats, type SenderControl, type SentTransfer, type SoakPartner } from "./senders";

/** What every soak server and worker runs with: the run's keys, the 127.0.0.1 receiver allowed, no rate limit. */
export function soakServerEnv(databaseUrl: string, retryScale: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    // `npm start` requires explicit keys; the soak process writes sealed secrets and audit records with the same.
    ...TEST_SECRETS,
    LOG_LEVEL: "warn",
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_ALLOW_INSECURE_HTTP: "true",
    CALLBACK_RETRY_SCALE: retryScale,
    V1_RATE_LIMIT_PER_MINUTE: "100000000",
  };
}

/** `runTag`: this run's mark in names and request ids, so that runs against one database never collide. */
export type SoakCast = { runTag: string; partners: SoakPartner[]; pharmacists: Pharmacist[] };

/** Two partners (callbacks to `receiverUrl`) and `pharmacistCount` pharmacists, named `<label> …` with a run tag. */
export async function createSoakCast(options: {
  databaseUrl: string;
  receiverUrl: string;
  label: string;
  pharmacistCount: number;
}): Promise<SoakCast> {
  const { databaseUrl, receiverUrl, label, pharmacistCount } = options;
  setBenchEnv(databaseUrl);
  const runTag = randomBytes(3).toString("hex");
  const partners: SoakPartner[] = [];
  for (const index of [0, 1]) {
    const cbPath = `/soak-partner-${index}`;
    const created = await createPartner({
      name: `${label} Sender ${index} ${runTag}`,
      callbackUrl: `${receiverUrl}${cbPath}`,
      npis: [],
    });
    partners.push({
      index,
      name: `${label} Sender ${index}`,
      partnerId: created.partnerId,
      apiKey: created.apiKey,
      webhookSecret: created.webhookSecret,
      path: cbPath,
    });
  }
  const pharmacists: Pharmacist[] = [];
  for (let i = 0; i < pharmacistCount; i++) {
    const email = `${label.toLowerCase()}-${runTag}-${i}@pharmacy.test`;
    const password = randomBytes(12).toString("base64url");
    const name = `${label} Pharmacist ${i}`;
    const { userId } = await createUser({ email, password, role: "pharmacist", name });
    pharmacists.push({ index: i, id: userId, email, password, name, cookie: null });
  }
  await disconnectDb();
  return { runTag, partners, pharmacists };
}

export type SoakLoadOptions = {
  /** Where senders and pharmacists send their requests (one server, or the balancer in front of several). */
  baseUrl: string;
  cast: SoakCast;
  senders: number;
  senderThinkMs: number;
  pharmacistThinkMs: number;
  intake: IntakeStats;
  decisionStats: DecisionStats;
  sent: Map<string, SentTransfer>;
  /** Acknowledged transfers waiting for a pharmacist. */
  queue: DecisionTarget[];
  stopNew: () => boolean;
  giveUpAt: () => number;
  onAcked: SenderControl["onAcked"];
};

/** Starts the senders and the pharmacists, the same in both soaks; each promise ends when its actor stops. */
export function startSoakLoad(o: SoakLoadOptions): { senders: Promise<void>[]; deciders: Promise<void>[] } {
  const { baseUrl, stopNew, giveUpAt } = o;
  const senderCtl = { baseUrl, stopNew, giveUpAt, onAcked: o.onAcked };
  const senders = Array.from({ length: o.senders }, (_, i) =>
    runSender({
      ctl: senderCtl,
      stats: o.intake,
      partner: o.cast.partners[i % o.cast.partners.length]!,
      client: i,
      runTag: o.cast.runTag,
      sent: o.sent,
      thinkMs: o.senderThinkMs,
    }),
  );
  const pharmacistCtl = { baseUrl, stopNew, giveUpAt, take: () => o.queue.shift() };
  const deciders = o.cast.pharmacists.map((me) =>
    runPharmacist({
      ctl: pharmacistCtl,
      stats: o.decisionStats,
      me,
      colleagues: o.cast.pharmacists.filter((p) => p !== me),
      thinkMs: o.pharmacistThinkMs,
    }),
  );
  return { senders, deciders };
}
