// Random corruptions of valid transfer requests, anywhere in the tree, for the property tests of the
// validator (lib/interface/validate-request.property.test.ts) and of the published schema's agreement with
// it (lib/openapi/schema-agreement.property.test.ts).
import fc from "fast-check";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { randomTransferRequest } from "@/lib/demo/random-transfer-request";

export type Segment = string | number;
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Container = Json[] | { [key: string]: Json };

export function seededRng(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A valid request as plain JSON: the fixed fixture or a random one. */
export const validRequestAt = (NOW: Date): fc.Arbitrary<Json> =>
  fc.oneof(
    fc.constant(null).map(() => buildTransferRequest({}, { now: NOW }) as unknown as Json),
    fc.integer().map((seed) => randomTransferRequest(seededRng(seed), { now: NOW }) as unknown as Json),
  );

/** Every path below the root, with the value found there. */
export function nodes(value: Json, prefix: Segment[] = []): { path: Segment[]; value: Json }[] {
  const children: [Segment, Json][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : value !== null && typeof value === "object"
      ? Object.entries(value)
      : [];
  return children.flatMap(([key, child]) => {
    const path = [...prefix, key];
    return [{ path, value: child }, ...nodes(child, path)];
  });
}

export function containerAt(root: Json, path: Segment[]): Container {
  let current: Json = root;
  for (const s of path) current = (current as Record<Segment, Json>)[s] as Json;
  return current as Container;
}

export function setAt(root: Json, path: Segment[], value: Json): void {
  const parent = containerAt(root, path.slice(0, -1)) as Record<Segment, Json>;
  parent[path[path.length - 1] as Segment] = value;
}

export function deleteAt(root: Json, path: Segment[]): void {
  const parent = containerAt(root, path.slice(0, -1));
  const key = path[path.length - 1] as Segment;
  if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key as string];
}

export function dotted(path: Segment[]): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

export type Corruption =
  | { kind: "delete"; pick: number }
  | { kind: "null"; pick: number }
  | { kind: "replace"; pick: number; value: Json }
  | { kind: "truncate"; pick: number; keep: number }
  | { kind: "extend"; pick: number; extra: string }
  | { kind: "addKey"; pick: number; key: string; value: Json };

export const jsonValue = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;

export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("null" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), pick: fc.nat(), value: jsonValue }),
  fc.record({ kind: fc.constant("truncate" as const), pick: fc.nat(), keep: fc.nat({ max: 12 }) }),
  fc.record({
    kind: fc.constant("extend" as const),
    pick: fc.nat(),
    extra: fc.oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.nat({ max: 3000 }).map((n) => "x".repeat(n + 1)),
    ),
  }),
  fc.record({
    kind: fc.constant("addKey" as const),
    pick: fc.nat(),
    key: fc.string({ maxLength: 80 }),
    value: jsonValue,
  }),
);

export function applyCorruption(root: Json, c: Corruption): void {
  const all = nodes(root);
  if (all.length === 0) return;
  switch (c.kind) {
    case "delete":
      deleteAt(root, all[c.pick % all.length]!.path);
      return;
    case "null":
      setAt(root, all[c.pick % all.length]!.path, null);
      return;
    case "replace":
      setAt(root, all[c.pick % all.length]!.path, c.value);
      return;
    case "truncate":
    case "extend": {
      const strings = all.filter((n) => typeof n.value === "string");
      if (strings.length === 0) return;
      const node = strings[c.pick % strings.length]!;
      const text = node.value as string;
      setAt(root, node.path, c.kind === "truncate" ? text.slice(0, Math.min(c.keep, text.length)) : text + c.extra);
      return;
    }
    case "addKey": {
      const objects = [{ path: [] as Segment[], value: root }, ...all].filter(
        (n) => n.value !== null && typeof n.value === "object" && !Array.isArray(n.value),
      );
      const target = objects[c.pick % objects.length]!;
      // defineProperty, as JSON.parse does: plain assignment of "__proto__" would set the prototype.
      if (!Object.hasOwn(target.value as object, c.key)) {
        Object.defineProperty(target.value, c.key, {
          value: c.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return;
    }
  }
}
