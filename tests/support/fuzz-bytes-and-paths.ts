// Malformed bytes and paths for the fuzz suites: bytes that are not UTF-8 spliced into a body, percent-encoding
// as a careless client does it, raw path characters, and hostile paths under a route family.
import fc from "fast-check";
import { hostileTextArb, unstorableTextArb } from "@/tests/support/fuzz-values";

/** Bytes that are not UTF-8: stray continuation bytes, overlongs, CESU-8 surrogates, truncated sequences. */
export const invalidUtf8Arb: fc.Arbitrary<Uint8Array> = fc
  .constantFrom(
    [0x80],
    [0xbf],
    [0xc0, 0x80],
    [0xc3],
    [0xe0, 0xa4],
    [0xed, 0xa0, 0x80],
    [0xed, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0xff],
    [0xfe, 0xff],
    [0xf0, 0x9f, 0x99],
  )
  .map((bytes) => Uint8Array.from(bytes));

/** A JSON text with raw bytes spliced in somewhere. */
export function spliceBytes(text: string, bytes: Uint8Array, position: number): Uint8Array {
  const encoded = Buffer.from(text, "utf8");
  const at = position % (encoded.length + 1);
  return Buffer.concat([encoded.subarray(0, at), bytes, encoded.subarray(at)]);
}

/**
 * Percent-encodes text for a path or query as its UTF-8 bytes; a lone surrogate, which has no UTF-8 form,
 * as the CESU-8 bytes a careless client would send (%ED%A0%80 for U+D800).
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const bytes =
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        : [...Buffer.from(char, "utf8")];
    out += /^[A-Za-z0-9\-._~]$/.test(char)
      ? char
      : bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
  return out;
}

/**
 * Raw path characters, sent as they are: any visible ASCII, so `%`, `..`, `?`, `#` and stray escapes. Bytes
 * outside ASCII are not HTTP (RFC 9112 §3.2): Node's parser refuses them with a bare 400 before any route.
 */
export const rawPathTextArb = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

/**
 * Malformed and hostile paths under `family` (`/v1`), with `resource` (`/v1/transfer`) standing for a
 * route that takes an id: bad percent-encodings, a NUL, CESU-8 surrogates, overlongs, dot segments,
 * repeated and trailing slashes, very long paths, raw ASCII and hostile ids.
 */
export function hostilePathArb(family: string, resource: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      family,
      `${family}/`,
      `${family}//${resource.slice(family.length + 1)}`,
      `${family}/%FF`,
      `${family}/${"%25".repeat(1500)}`,
      ...[
        "%ZZ",
        "%",
        "%00",
        "x%00",
        "%ED%A0%80",
        "%ED%B0%80/status",
        "%E0%A4%A",
        "%C0%80",
        "..%2F..%2Fadmin",
        "%2e%2e/",
        "%2e%2e/%2e%2e/v1/transfer",
        "",
        "a/b/c",
        `x${"a".repeat(4000)}`,
      ].map((tail) => `${resource}/${tail}`),
      `${resource}?x=%00`,
    ),
    rawPathTextArb.map((tail) => `${resource}/${tail}`),
    rawPathTextArb.map((tail) => `${family}/${tail}`),
    fc.oneof(unstorableTextArb, hostileTextArb).map((id) => `${resource}/${percentEncode(id)}`),
  );
}
