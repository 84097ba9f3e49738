// `npm test`: the whole suite, in the order a failure is cheapest to find: lint, format, production build,
// typecheck, unit and integration tests (Vitest, real PostgreSQL), browser tests (Playwright, Chromium).
// Ends with one line `total: N passed, N failed, N skipped` counting every check and test it ran.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { findChromium, HOW_TO_GET_CHROMIUM } from "../tests/support/chromium";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS = path.join(ROOT, "test-results");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CI: process.env.CI ?? "true" };

type Tally = { passed: number; failed: number; skipped: number };
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];
// The failed tests by name, printed again beside the total: CI logs are often read from their tail.
const failures: string[] = [];
const flaky: string[] = [];

function run(cmd: string, args: string[], extraEnv: Record<string, string> = {}): boolean {
  const started = Date.now();
  process.stdout.write(`\n▶ ${cmd} ${args.join(" ")}\n`);
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", env: { ...env, ...extraEnv } });
  process.stdout.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return result.status === 0;
}

function check(name: string, ok: boolean): boolean {
  total[ok ? "passed" : "failed"]++;
  lines.push(`${ok ? "✔" : "✘"} ${name}`);
  return ok;
}

function add(name: string, t: Tally, exitedOk: boolean): void {
  // A runner that failed without reporting a failed test (a crash, a broken setup) still counts as one failure.
  if (!exitedOk && t.failed === 0) t.failed = 1;
  total.passed += t.passed;
  total.failed += t.failed;
  total.skipped += t.skipped;
  lines.push(`${t.failed ? "✘" : "✔"} ${name}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
}

function readJson(file: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function num(v: unknown): number {
  return typeof v === "number" ? v : 0;
}

function firstLine(text: string | undefined): string {
  return (
    (text ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 300) ?? ""
  );
}

type PwSuite = { title?: string; file?: string; suites?: PwSuite[]; specs?: PwSpec[] };
type PwSpec = {
  title?: string;
  line?: number;
  tests?: { status?: string; results?: { error?: { message?: string } }[] }[];
};

/** The browser tests that failed, and those that failed once and passed on CI's one retry (named, not hidden). */
function playwrightOutcomes(report: Record<string, unknown> | null): { failed: string[]; flaky: string[] } {
  const out = { failed: [] as string[], flaky: [] as string[] };
  const walk = (suite: PwSuite, file: string) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const message = t.results?.map((r) => r.error?.message).find(Boolean);
        (t.status === "flaky" ? out.flaky : out.failed).push(
          `playwright ${here}:${spec.line ?? "?"} › ${spec.title}: ${firstLine(message)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const s of (report?.suites ?? []) as PwSuite[]) walk(s, "");
  return out;
}

const chromium = findChromium();
if (!chromium) {
  process.stderr.write(
    `\n${HOW_TO_GET_CHROMIUM}\nnpm test runs the browser tests too and does not skip them silently.\n`,
  );
  process.stdout.write("total: 0 passed, 1 failed\n");
  process.exit(1);
}

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

check("lint (eslint)", run("npx", ["eslint", "."]));
check("format (prettier --check)", run("npx", ["prettier", "--check", "--log-level", "warn", "."]));
const built = check("build (next build)", run("npm", ["run", "build"]));
check("typecheck (tsc)", run("npx", ["tsc", "--noEmit"]));

if (built) {
  const vitestFile = path.join(RESULTS, "vitest.json");
  const vitestOk = run("npx", [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestFile}`,
  ]);
  const v = readJson(vitestFile);
  // A file that failed without a failed test (it did not load, or a hook threw) counts as one failure.
  const files = (Array.isArray(v?.testResults) ? v.testResults : []) as {
    status?: string;
    assertionResults?: { status?: string }[];
  }[];
  const brokenFiles = files.filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  for (const f of files) {
    for (const a of (f as { assertionResults?: { status?: string; fullName?: string; failureMessages?: string[] }[] })
      .assertionResults ?? []) {
      if (a.status === "failed")
        failures.push(
          `vitest ${path.relative(ROOT, (f as { name?: string }).name ?? "")} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`,
        );
    }
    if (f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed")) {
      failures.push(
        `vitest ${path.relative(ROOT, (f as { name?: string }).name ?? "")}: ${firstLine((f as { message?: string }).message)}`,
      );
    }
  }
  add(
    "unit + integration (vitest)",
    {
      passed: num(v?.numPassedTests),
      failed: num(v?.numFailedTests) + brokenFiles,
      skipped: num(v?.numPendingTests) + num(v?.numTodoTests),
    },
    vitestOk,
  );

  const pwFile = path.join(RESULTS, "playwright.json");
  const pwOk = run("npx", ["playwright", "test"], { CI: "true" });
  const p = existsSync(pwFile) ? readJson(pwFile) : null;
  const stats = (p?.stats ?? {}) as Record<string, unknown>;
  const outcomes = playwrightOutcomes(p);
  failures.push(...outcomes.failed);
  flaky.push(...outcomes.flaky);
  add(
    "browser end-to-end (playwright)",
    {
      passed: num(stats.expected) + num(stats.flaky),
      failed: num(stats.unexpected),
      skipped: num(stats.skipped),
    },
    pwOk,
  );
  // The benchmark's smoke run: every part of `npm run bench` works (short runs, small data); no timing is asserted.
  check("benchmark smoke run (npm run bench -- --quick)", run("npx", ["tsx", "bench/run.ts", "--quick"]));
  // The soak's short run: kills and restarts the server and takes the callback receiver down under load, then
  // checks that nothing acknowledged was lost (it fails on a lost transfer, decision or callback).
  check("soak, short run (npm run soak -- --quick)", run("npx", ["tsx", "bench/soak.ts", "--quick"]));
  // The scale-out soak's short run: two instances and a standalone worker behind a balancer, instances and the
  // worker killed under load, readiness during a graceful stop; the same checks across instances.
  check(
    "scale-out soak, short run (npm run soak -- --instances 2 --workers 1 --quick)",
    run("npx", ["tsx", "bench/soak.ts", "--instances", "2", "--workers", "1", "--quick"]),
  );
} else {
  lines.push("✘ tests not run: the build failed");
  total.failed++;
}

if (flaky.length)
  process.stdout.write(
    `\nflaky (failed, then passed on the retry; counted as passed):\n${flaky.map((f) => `  ${f}`).join("\n")}\n`,
  );
if (failures.length) process.stdout.write(`\nfailed:\n${failures.map((f) => `  ${f}`).join("\n")}\n`);
process.stdout.write(`\n${lines.join("\n")}\n`);
process.stdout.write(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exit(total.failed > 0 ? 1 : 0);
