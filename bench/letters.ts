// A number spelled in letters, for the benchmarks' patient names: the wire format's name checks take letters
// only, and a name of its own per request keeps the transfers from being one patient.

/** n as letters: 0 -> a, 25 -> z, 26 -> ba … */
export function letters(n: number): string {
  let s = "";
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
}
