// The decision stage's client-safe entry: what a pharmacist submits to approve or reject, which the dashboard's
// forms validate with the same zod schemas as the API. No server-only imports.
export * from "./decision-inputs";
