// The soak's check results: a Check, one the run answers itself (plainCheck), and the builder the database
// checks count their cases and keep their first failures with.
import { requestDigest } from "./util";

export type Check = { name: string; ok: boolean; checked: number; failures: number; examples: string[] };

/** A check the run itself answers (no rows to count): passed, or failed with one line saying why. */
export function plainCheck(name: string, ok: boolean, detail: string): Check {
  return { name, ok, checked: 0, failures: ok ? 0 : 1, examples: ok ? [] : [detail] };
}

export class CheckBuilder {
  private checked = 0;
  private failed: string[] = [];
  constructor(readonly name: string) {}
  expect(ok: boolean, explain: () => string): void {
    this.checked++;
    if (!ok) this.failed.push(explain());
  }
  fail(text: string): void {
    this.failed.push(text);
  }
  done(): Check {
    return {
      name: this.name,
      ok: this.failed.length === 0,
      checked: this.checked,
      failures: this.failed.length,
      examples: this.failed.slice(0, 5),
    };
  }
}

export const sameJson = (a: unknown, b: unknown) => requestDigest({ v: a }) === requestDigest({ v: b });
