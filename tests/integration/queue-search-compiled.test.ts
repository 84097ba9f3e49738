// A queue page's statement is compiled once per shape (lib/transfers/queries/queue.ts): two name searches of
// one shape run the same compiled statement and still find each its own patients, in the page's order.
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { receiveTransfer } from "@/lib/transfers/intake";
import { QueueQuerySchema, runQueueStatement, selectQueuePage, type Phase } from "@/lib/transfers/queue";
import { createTestPartner, freshRequest, uniqueLetters } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

connectTestEnvironment();

let partner: CreatedPartner;
/** Two surnames of their own, each with three patients' transfers, in arrival order. */
const families = { a: `Shape${uniqueLetters()}`, b: `Shape${uniqueLetters()}` };
const received: Record<keyof typeof families, string[]> = { a: [], b: [] };

beforeAll(async () => {
  partner = await createTestPartner("Search shapes");
  for (const first of ["Anna", "Ben", "Cleo"])
    for (const key of ["a", "b"] as const) {
      const request = freshRequest((r) => {
        r.patient.name.lastName = families[key];
        r.patient.name.firstName = first;
      });
      const outcome = await receiveTransfer(partner.partnerId, request);
      if (outcome.kind !== "created") throw new Error(`not stored: ${outcome.kind}`);
      received[key].push(outcome.response.metadata.referenceID);
    }
});

function search(q: string, phase: Phase = 0) {
  return selectQueuePage({
    query: QueueQuerySchema.parse({ q, sort: "newest" }),
    phase,
    after: null,
    limit: 2,
    now: new Date(),
  });
}

describe("name searches of one shape", () => {
  it("share one compiled statement and find each its own patients", async () => {
    const [a, b] = [search(families.a), search(families.b)];
    expect(b.compile().query).toBe(a.compile().query);
    const ids = async (statement: ReturnType<typeof search>) => (await runQueueStatement(statement)).map((r) => r.id);
    // Newest first, a page of two.
    expect(await ids(a)).toEqual(received.a.slice(1).reverse());
    expect(await ids(b)).toEqual(received.b.slice(1).reverse());
    // Two words, either order: another shape (two name prefixes), shared by its own searches.
    const [ab, ba] = [search(`ben ${families.a}`), search(`${families.b} cleo`)];
    expect(ba.compile().query).toBe(ab.compile().query);
    expect(ab.compile().sql).not.toBe(a.compile().sql);
    expect(await ids(ab)).toEqual([received.a[1]]);
    expect(await ids(ba)).toEqual([received.b[2]]);
  });
});
