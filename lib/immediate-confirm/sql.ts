// The immediate-confirmation statements, by what each part does (typed: lib/db/kysely.ts): the policy's facts
// and locks (policy-sql.ts), intake's store-and-judge statement (store-and-judge-sql.ts), the decision or the
// miss written after it (confirmation-sql.ts) and the hourly cap's counts (cap-count-sql.ts). Import the part
// itself; this entry keeps older imports working.
export * from "@/lib/immediate-confirm/policy-sql";
export * from "@/lib/immediate-confirm/store-and-judge-sql";
export * from "@/lib/immediate-confirm/confirmation-sql";
export * from "@/lib/immediate-confirm/cap-count-sql";
