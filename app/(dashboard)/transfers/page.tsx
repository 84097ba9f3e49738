import type { Metadata } from "next";
import { QueueView, type QueueInitialState } from "@/components/dashboard/queue/queue-view";
import { requirePageUser } from "@/lib/auth/require-user";
import { listSenders } from "@/lib/transfers/list-queue";
import { SENDER_WINDOW_MS } from "@/lib/transfers/sender-window";

export const metadata: Metadata = { title: "Transfer queue" };

type Params = Record<string, string | string[] | undefined>;

export default async function QueuePage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (typeof v === "string") query.set(k, v);
  const user = await requirePageUser(`/transfers${query.size ? `?${query}` : ""}`);
  const one = (key: string) => (typeof params[key] === "string" ? (params[key] as string) : "");
  const initial: QueueInitialState = {
    status: one("status") || "RECEIVED",
    sender: one("sender"),
    from: one("from"),
    to: one("to"),
    flags: one("flags") ? one("flags").split(",") : [],
    schedule: one("schedule"),
    q: one("q"),
    sort: one("sort") || "oldest",
  };
  return (
    <QueueView
      initial={initial}
      senders={await listSenders()}
      user={{ id: user.id, name: user.name, role: user.role }}
      denied={one("denied") || null}
      windowMs={SENDER_WINDOW_MS}
    />
  );
}
