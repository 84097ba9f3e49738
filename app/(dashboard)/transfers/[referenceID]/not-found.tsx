"use client";
// An unknown referenceID, on the review screen or the record: says so, and offers the queue's search with
// the reference filled in (a plain GET form, so it works before the page has hydrated too).
import { useParams } from "next/navigation";
import { DeadEnd } from "@/components/errors/dead-end";
import { buttonClass } from "@/components/ui/button";

export default function TransferNotFound() {
  // not-found files get no props; the segment's params come from the router.
  const params = useParams<{ referenceID: string }>();
  const reference = typeof params.referenceID === "string" ? params.referenceID : "";
  return (
    <DeadEnd
      title="No transfer with this reference"
      standalone={false}
      ways={[{ href: "/transfers", label: "Go to the transfer queue" }]}
      actions={
        <form action="/transfers" method="get" role="search" aria-label="Search transfers" className="flex gap-2">
          <label htmlFor="transfer-search" className="sr-only">
            Reference, Rx number, patient or date of birth
          </label>
          <input
            id="transfer-search"
            name="q"
            defaultValue={reference}
            className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1 font-mono text-xs focus:border-blue-600"
          />
          <button type="submit" className={buttonClass("primary")}>
            Search the queue
          </button>
        </form>
      }
    >
      <p>
        There is no transfer{" "}
        {reference && <code className="rounded bg-slate-100 px-1 font-mono text-xs">{reference}</code>} here. Check the
        reference, or search the queue for it (or for the Rx number, patient name or date of birth).
      </p>
    </DeadEnd>
  );
}
