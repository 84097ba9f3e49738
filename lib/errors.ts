// Domain errors with a stable code: the edges (HTTP, CLI) map them to their own answer shapes.
// "refused": well-formed and allowed, but a clinical or legal rule forbids it (422 over HTTP).
export type DomainErrorCode = "not_found" | "invalid_input" | "conflict" | "forbidden" | "refused";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
