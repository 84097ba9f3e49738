// A cheap scan of a TransferRequest body's text, before it is parsed and validated: it refuses a body whose
// shape is past BODY_SHAPE_LIMITS (keys in one object, items in one array, values in all, nesting depth), so
// that what a request costs to parse and validate is bounded by those numbers and not by its size (a 1 MB body
// of 120,000 keys took seconds to validate and held every other request up meanwhile). One pass over the text
// without building anything; strings are skipped with indexOf. Invalid JSON is left to JSON.parse, which runs
// only on a body that passed this scan.
import { formatPath, MAX_JSON_DEPTH } from "@/lib/text-safety";
import { BODY_SHAPE_LIMITS } from "@/lib/interface/wire-constants";

type Frame = { isObject: boolean; commas: number; key: string | null; label: PropertyKey };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote that ends the string opened at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

function keyOf(raw: string): string {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return "";
  }
}

const pathOf = (stack: readonly Frame[]): string => formatPath(stack.slice(1).map((f) => f.label)) || "request body";

/**
 * Why the body's shape is refused ("metadata has more than 64 keys"), naming the place by its path, or null.
 * A body that is not JSON at all passes when its brackets and commas stay within the limits.
 */
export function findShapeProblem(text: string): string | null {
  const stack: Frame[] = [];
  let values = 0;
  let lastString: [number, number] | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return null;
      lastString = [i + 1, end];
      i = end;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === 0x7b || c === 0x5b) {
      // { or [
      const label: PropertyKey = top ? (top.isObject ? (top.key ?? "") : top.commas) : "";
      stack.push({ isObject: c === 0x7b, commas: 0, key: null, label });
      if (stack.length > MAX_JSON_DEPTH)
        return `${pathOf(stack)} is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`;
      if (++values > BODY_SHAPE_LIMITS.values) return `request body has more than ${BODY_SHAPE_LIMITS.values} values`;
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      stack.pop();
    } else if (c === 0x3a && top?.isObject && lastString) {
      // : after a key
      top.key = keyOf(text.slice(lastString[0], lastString[1]));
    } else if (c === 0x2c && top) {
      // ,
      top.commas++;
      if (++values > BODY_SHAPE_LIMITS.values) return `request body has more than ${BODY_SHAPE_LIMITS.values} values`;
      if (top.isObject && top.commas >= BODY_SHAPE_LIMITS.keysPerObject)
        return `${pathOf(stack)} has more than ${BODY_SHAPE_LIMITS.keysPerObject} keys`;
      if (!top.isObject && top.commas >= BODY_SHAPE_LIMITS.itemsPerArray)
        return `${pathOf(stack)} has more than ${BODY_SHAPE_LIMITS.itemsPerArray} items`;
    }
  }
  return null;
}
