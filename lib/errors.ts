// Domain errors with a stable code: the edges (HTTP, CLI) map them to their own answer shapes.
export type DomainErrorCode = "not_found" | "invalid_input" | "conflict" | "forbidden";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
