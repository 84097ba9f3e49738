// The Prescription Transfer interface as this service speaks it (docs/interface.md): the wire format defined
// once in zod, the rules a request must keep, and the envelopes of our answers. The kernel every domain
// shares, so it imports no domain: lib/transfers and the rest import it, never the other way round.
// Client components import ./client-safe instead (lib/ids, behind the envelopes, is node's crypto).
export * from "./client-safe";
export * from "./responses";
