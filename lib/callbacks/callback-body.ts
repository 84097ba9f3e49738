import type { z } from "zod";
import { TransferResponseSchema } from "@/lib/interface";

/**
 * The wire key order of a schema, read once from its zod definition: for an object, each key of its shape
 * in order with its own value's order; for an array, its element's. Wrappers (optional, nullable, …) are
 * looked through. Only key order: no value is checked or changed (the payload was validated when stored).
 */
type KeyOrder = { keys: [string, KeyOrder | null][] } | { element: KeyOrder } | null;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
};

/** The keys of several orders, each where it first appears (a union's variants, an intersection's sides). */
function mergedOrder(orders: KeyOrder[]): KeyOrder {
  const keys = new Map<string, KeyOrder[]>();
  for (const order of orders)
    if (order && "keys" in order)
      for (const [key, inner] of order.keys) keys.set(key, [...(keys.get(key) ?? []), inner]);
  return keys.size === 0
    ? null
    : { keys: [...keys].map(([key, inners]) => [key, inners.length === 1 ? inners[0]! : mergedOrder(inners)]) };
}

function keyOrderOf(schema: z.ZodType): KeyOrder {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type === "union" && def.options) return mergedOrder(def.options.map(keyOrderOf));
  if (def.type === "intersection" && def.left && def.right)
    return mergedOrder([keyOrderOf(def.left), keyOrderOf(def.right)]);
  if (def.type === "object" && def.shape)
    return { keys: Object.entries(def.shape).map(([key, value]) => [key, keyOrderOf(value)]) };
  if (def.type === "array" && def.element) {
    const element = keyOrderOf(def.element);
    return element ? { element } : null;
  }
  return def.innerType ? keyOrderOf(def.innerType) : null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` rebuilt with the order's keys first, in order, then any other keys as they came (loose objects keep extras). */
function ordered(value: unknown, order: KeyOrder): unknown {
  if (!order) return value;
  if ("element" in order) return Array.isArray(value) ? value.map((item) => ordered(item, order.element)) : value;
  if (!isPlainObject(value)) return value;
  // No prototype: a stored "__proto__" key stays a key.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, inner] of order.keys) if (key in value) out[key] = ordered(value[key], inner);
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = value[key];
  return out;
}

const RESPONSE_ORDER = keyOrderOf(TransferResponseSchema);

/**
 * The callback body: the stored TransferResponse written in the wire schema's key order (PostgreSQL's jsonb
 * does not keep key order), so every attempt sends the same bytes and reads like our other answers. The
 * order is read from the schema once; a zod parse per attempt would cost the worker CPU on every send (bench/HISTORY.md).
 */
export function serializeCallbackBody(payload: unknown): string {
  return JSON.stringify(ordered(payload, RESPONSE_ORDER));
}
