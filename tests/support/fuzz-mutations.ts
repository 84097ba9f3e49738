// JSON mutations for the fuzz suites: the paths of a JSON value, and deletions, replacements, added keys and
// spliced text applied at them (stable while fast-check shrinks).
import fc from "fast-check";
import { hostileKeyArb, hostileTextArb, hostileValueArb, setOwn } from "@/tests/support/fuzz-values";

type JsonPath = (string | number)[];

/** Every path in a JSON value, containers included, root first. */
export function pathsOf(value: unknown, prefix: JsonPath = []): JsonPath[] {
  const paths: JsonPath[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

/** The paths of every string leaf. */
export function stringPathsOf(value: unknown): JsonPath[] {
  return pathsOf(value).filter((path) => typeof valueAt(value, path) === "string");
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) current = (current as Record<string | number, unknown>)[segment];
  return current;
}

export type Mutation =
  | { kind: "delete"; at: number }
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "addKey"; at: number; key: string; value: unknown }
  | { kind: "spliceText"; at: number; text: string; position: number };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: hostileValueArb }),
  fc.record({ kind: fc.constant("addKey" as const), at: fc.nat(), key: hostileKeyArb, value: hostileValueArb }),
  fc.record({ kind: fc.constant("spliceText" as const), at: fc.nat(), text: hostileTextArb, position: fc.nat() }),
);

/**
 * Applies mutations to a copy of `base`. `at` picks among the value's paths at that moment (modulo), so a
 * mutation stays meaningful while fast-check shrinks the others away.
 */
export function mutate(base: unknown, mutations: readonly Mutation[]): unknown {
  let root: unknown = structuredClone(base);
  for (const mutation of mutations) {
    const paths = mutation.kind === "spliceText" ? stringPathsOf(root) : pathsOf(root);
    if (paths.length === 0) continue;
    const path = paths[mutation.at % paths.length]!;
    const parent =
      path.length === 0 ? undefined : (valueAt(root, path.slice(0, -1)) as Record<string | number, unknown>);
    const key = path[path.length - 1];
    switch (mutation.kind) {
      case "delete":
        if (parent === undefined || key === undefined) root = undefined;
        else if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
        else delete parent[key];
        break;
      case "replace":
        if (parent === undefined || key === undefined) root = mutation.value;
        else setOwn(parent as Record<string, unknown>, String(key), mutation.value);
        break;
      case "addKey": {
        const target = valueAt(root, path);
        if (target !== null && typeof target === "object" && !Array.isArray(target))
          setOwn(target as Record<string, unknown>, mutation.key, mutation.value);
        break;
      }
      case "spliceText": {
        const text = valueAt(root, path) as string;
        const at = mutation.position % (text.length + 1);
        const spliced = text.slice(0, at) + mutation.text + text.slice(at);
        if (parent === undefined || key === undefined) root = spliced;
        else setOwn(parent as Record<string, unknown>, String(key), spliced);
        break;
      }
    }
  }
  return root;
}
