// Prefixed, sortable identifiers: a person who sees or pastes `trf_…` knows what it names.
import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 text of the given length (rejection sampling avoids modulo bias). Secrets use this. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

// Ids (not secrets) draw their random bytes from the system in blocks, each byte handed out once (as
// crypto.randomUUID does): one call into the system per block instead of one per id, and every intake
// request makes two ids.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function randomIdText(length: number): string {
  let out = "";
  while (out.length < length) {
    if (used === pool.length) {
      pool = randomBytes(POOL_BYTES);
      used = 0;
    }
    const byte = pool[used++]!;
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** Time-ordered id: 10 base62 chars of milliseconds, then 12 random ones (~71 bits). */
export function newId(
  prefix: "trf" | "prt" | "key" | "ikey" | "cli" | "tok" | "usr" | "rsp" | "str" | "evt" | "err" | "msg" | "ses",
): string {
  let ms = Date.now();
  let time = "";
  for (let i = 0; i < 10; i++) {
    time = BASE62[ms % 62] + time;
    ms = Math.floor(ms / 62);
  }
  return `${prefix}_${time}${randomIdText(12)}`;
}
