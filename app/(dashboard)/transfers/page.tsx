// The review queue. Its first page is read here and handed to the screen's query cache, so the first paint
// shows the rows (no jump when they arrive); the screen refreshes it from then on.
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { queueApiParams, queueQueryKey } from "@/components/dashboard/queue/queue-api-params";
import { QueueView, type QueueInitialState } from "@/components/dashboard/queue/queue-view";
import { requirePageUser, type SessionUser } from "@/lib/auth/require-user";
import { DomainError } from "@/lib/errors";
import { clientAddressOf } from "@/lib/http/request-context";
import { listQueue, listSenders, type QueuePage, parseQueueQuery } from "@/lib/transfers/queue";
import { SENDER_WINDOW_MS } from "@/lib/interface";

export const metadata: Metadata = { title: "Transfer queue" };

type Params = Record<string, string | string[] | undefined>;

/**
 * The first page, read and audited (queue.viewed / queue.searched) as the screen's own first read would be;
 * null where the browser must ask: a date filter (the reader's calendar days) or parameters the API refuses
 * (the screen then shows the API's answer).
 */
async function readFirstPage(initial: QueueInitialState, actor: SessionUser): Promise<QueuePage | null> {
  if (initial.from || initial.to) return null;
  try {
    const query = parseQueueQuery(queueApiParams(initial, undefined));
    const clientAddress = clientAddressOf(new Request("http://local", { headers: await headers() }));
    return await listQueue(query, { actor, clientAddress });
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid_input") return null;
    throw err;
  }
}

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
  const [senders, firstPage] = await Promise.all([listSenders(), readFirstPage(initial, user)]);
  const queryClient = new QueryClient();
  if (firstPage) {
    queryClient.setQueryData(queueQueryKey(initial, undefined), firstPage, {
      updatedAt: new Date(firstPage.serverTime).getTime(),
    });
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <QueueView
        initial={initial}
        senders={senders}
        user={{ id: user.id, name: user.name, role: user.role }}
        denied={one("denied") || null}
        windowMs={SENDER_WINDOW_MS}
        serverTime={firstPage?.serverTime ?? null}
      />
    </HydrationBoundary>
  );
}
