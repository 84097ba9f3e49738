// The wire format of the Prescription Transfer interface (its section 2; docs/interface.md), defined
// once. Request validation, the TypeScript types, the OpenAPI document and the test fixtures all derive
// from these schemas; nothing else restates the shapes.
//
// What these schemas decide is the *structure*: required keys, nullability, JSON types, lengths,
// patterns, enums and date formats. Whether well-formed values are also right (NPI and DEA check digits,
// a known receiving pharmacy, refills that add up, dates in order, expiry) is decided afterwards, in
// validate-request.ts, because the interface classifies those failures differently.
//
// Conventions:
// - Objects reject unknown keys, except the two metadata objects, which the interface marks as open.
// - Where the interface gives no length bound, strings must still be non-blank and get a generous
//   maximum (the constants of wire-constants.ts), so that storage and logs are protected.
// - Every string of a request, unknown keys and key names included, must be valid Unicode without NUL
//   (PostgreSQL cannot store the rest). That rule is not per field: validate-request.ts applies it to the
//   whole parsed body with lib/text-safety.ts.
// - Custom messages on checks are phrased to follow a field path ("prescription.dawCode must be…") and
//   never quote the value, because error descriptions may be logged.
//
// The definitions live in wire-constants.ts, wire-fields.ts (the shared field builders), wire-request.ts and
// wire-response.ts; this module is the one place the rest of the code imports them from.
export * from "./wire-constants";
export * from "./wire-request";
export * from "./wire-response";
