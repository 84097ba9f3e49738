// Runs `npm run cli -- …` for real (tsx scripts/cli.ts, --json) against a database, with the given settings.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type CliRun = { code: number; json: Record<string, unknown>; stderr: string };

export async function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
  // undefined removes a variable the test process has (e.g. a key, to show what happens without it).
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", ...args, "--json"],
      {
        cwd: ROOT,
        env: childEnv,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return { code: 0, json: JSON.parse(stdout) as Record<string, unknown>, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(e.stdout) as Record<string, unknown>;
    } catch {
      json = { unparsed: e.stdout };
    }
    return { code: e.code, json, stderr: e.stderr };
  }
}
