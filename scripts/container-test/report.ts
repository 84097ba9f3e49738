// The container test's voice and score: timestamped progress lines, one `ok`/`FAIL` line per check, and
// the closing `container: N passed, N failed`. An interruption (SIGINT/SIGTERM) is recorded here: the checks
// and commands still to come fail at once and are not counted; only clean-up runs.

const started = Date.now();
const tally = { passed: 0, failed: 0 };
const failures: string[] = [];
let interrupted: string | null = null;

export const say = (msg: string) =>
  process.stdout.write(`[container ${Math.round((Date.now() - started) / 1000)}s] ${msg}\n`);

/** The signal that interrupted the run, or null while it runs on. */
export function interruptedBy(): string | null {
  return interrupted;
}

export function markInterrupted(signal: string): void {
  interrupted = signal;
}

export function check(name: string, ok: boolean, detail = ""): boolean {
  if (interrupted) return false;
  tally[ok ? "passed" : "failed"]++;
  if (!ok) failures.push(name);
  process.stdout.write(`  ${ok ? "ok  " : "FAIL"} ${name}${detail ? ` (${detail})` : ""}\n`);
  return ok;
}

export function finish(): never {
  if (failures.length) process.stdout.write(`failed: ${failures.join("; ")}\n`);
  say("finished");
  process.stdout.write(`container: ${tally.passed} passed, ${tally.failed} failed\n`);
  process.exit(tally.failed > 0 || tally.passed === 0 ? 1 : 0);
}
