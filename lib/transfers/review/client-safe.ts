// The review stage's client-safe entry: the drug review, the automated checks and how quantities are counted,
// which the review screen, the approve dialog and the queue run in the browser exactly as the server does.
// No server-only imports (the reads and the environment's options are in index.ts).
export * from "./drug-review";
export * from "./review-checks";
export * from "./review-checks-drug";
export * from "./review-checks-fills";
export * from "./review-checks-product";
export * from "./quantity-units";
export * from "./transfer-state";
