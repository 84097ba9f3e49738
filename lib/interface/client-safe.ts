// The interface kernel's client-safe entry: the wire format, its identifiers, dates and rules, and how people
// and places in it are written. No server-only imports, nothing of node's: the dashboard's client components
// import this; everything else imports lib/interface (index.ts), which adds the answers the service sends.
export * from "./wire";
export * from "./identifiers";
export * from "./dates";
export * from "./sender-window";
export * from "./no-known-allergies";
export * from "./request-shape";
export * from "./validate-request";
export * from "./people-and-places";
