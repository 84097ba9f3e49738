// A hot statement whose text is the same on every call, built with Kysely once: the builder runs with a
// placeholder for each value, is compiled, and each call then sends that text with its own values in the
// placeholders' positions. Building and compiling a large statement (the intake's) on every request costs more
// CPU than the round trip it saves; the text, typed as Kysely types it, is the same either way, and each
// connection prepares it once (pool-query.ts).
//
// What the builder may do with a placeholder: pass it as a value (a comparison, a column's value, `${p}` in
// sql``). It must not branch on it, read it, or spread it: a builder whose shape depends on a value is two
// shapes, each made with its own statementShape.
import type { Compilable, CompiledQuery } from "kysely";

class Placeholder {
  constructor(readonly key: string) {}
}

export type StatementShape<A, R> = (args: A) => Compilable<R>;

/** The statement `build` makes, compiled on first use; each call fills in `args` (keys the builder read). */
export function statementShape<A extends Record<string, unknown>, R>(
  build: (args: A) => Compilable<R>,
): StatementShape<A, R> {
  let compiled: { sql: string; slots: readonly unknown[]; query: CompiledQuery<R> } | undefined;
  return (args) => {
    if (!compiled) {
      const placeholders = new Proxy({} as A, {
        get: (_target, key) => (typeof key === "string" ? new Placeholder(key) : undefined),
      });
      const query = build(placeholders).compile();
      compiled = { sql: query.sql, slots: query.parameters, query };
    }
    const { sql, slots, query } = compiled;
    const parameters = slots.map((slot) => (slot instanceof Placeholder ? args[slot.key] : slot));
    return { compile: () => ({ ...query, sql, parameters }) };
  };
}
