// A statement of the hot paths built and compiled once, then only given new values. Building a Kysely
// statement and compiling it to text walks and copies its whole tree, a cost per call that a hand-written
// string never had (a few tenths of a millisecond for the decision's statements, every approval). A statement
// whose text never changes needs it once: it is built with a placeholder object for each value, compiled, and
// each placeholder's positions among the parameters noted; a call then only fills those positions.
//
// The build function must use its values only as values (in `sql` templates, `.values()`, `.set()`,
// comparisons; reading a property gives that property's placeholder): it must not branch on them, spread them
// or compute with them, since at build time they are placeholders. A statement with several shapes (a clause
// present or not) is one compiledStatement per shape. Nothing is spliced into the text: every value is still a
// $n parameter.
//
// A call's values are one object. Give several groups of values as nested objects ({ row, key, audit }: a
// placeholder's property is a placeholder too) rather than merging them into one: a spread copies each
// property one at a time, tens of microseconds per call for a row of some 60 values.
import type { Compilable, CompiledQuery } from "kysely";

const PATH = Symbol("placeholder");
type Placeholder = { readonly [PATH]: readonly string[] };

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === "object" && value !== null && PATH in value;
}

/**
 * A placeholder for a value at `path` in the values: reading a property gives the placeholder of the value
 * there (so a builder may read `w.audit.hash`), the same object each time.
 */
function placeholder(path: readonly string[]): Placeholder {
  const children = new Map<string, Placeholder>();
  return new Proxy({} as Placeholder, {
    has: (_target, key) => key === PATH,
    get(_target, key) {
      if (key === PATH) return path;
      if (typeof key !== "string") return undefined;
      let child = children.get(key);
      if (!child) children.set(key, (child = placeholder([...path, key])));
      return child;
    },
  });
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  let value = values;
  for (const key of path) value = (value as Record<string, unknown>)[key];
  return value;
}

/** A statement compiled once; called with its values, it answers the compiled statement to run. */
export type CompiledStatement<P, R> = (values: P) => CompiledQuery<R>;

/**
 * Builds and compiles the statement `build` makes on first use; each call answers the same text with the
 * values put in place. The result goes to `poolQuery`, a pool transaction's `query`, `inPrismaTx` or
 * `sqlDb().executeQuery` like a builder.
 */
export function compiledStatement<P extends Record<string, unknown>, R>(
  build: (values: P) => Compilable<R>,
): CompiledStatement<P, R> {
  let template: CompiledQuery<R> | undefined;
  // For each parameter position, the value's path, or undefined for a constant the builder put there itself.
  let paths: (readonly string[] | undefined)[] = [];
  return (values) => {
    if (!template) {
      template = build(placeholder([]) as unknown as P).compile();
      paths = template.parameters.map((p) => (isPlaceholder(p) ? p[PATH] : undefined));
    }
    const constants = template.parameters;
    const parameters = new Array<unknown>(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i];
      parameters[i] = path === undefined ? constants[i] : path.length === 1 ? values[path[0]!] : valueAt(values, path);
    }
    return { query: template.query, queryId: template.queryId, sql: template.sql, parameters };
  };
}
