// `npm run dev` and `npm start`: the database (embedded unless DATABASE_URL is set), migrations, this
// pharmacy's store row, demo data on first dev start, then Next itself as a child process.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { disconnectDb } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { seedDemoOnce } from "@/lib/demo/seed-demo";
import { ensureConfiguredStore } from "@/lib/stores/store-npis";
import { dataDir, ensureAuthSecret, loadEnvOrExit, startDatabase } from "./runtime";

const arg = process.argv[2];
if (arg !== "dev" && arg !== "start") {
  process.stderr.write("usage: tsx scripts/serve.ts dev|start\n");
  process.exit(2);
}
const mode: "dev" | "start" = arg;

const say = (msg: string) => process.stdout.write(`[rx-transfer] ${msg}\n`);

async function main(): Promise<void> {
  loadEnvOrExit();
  ensureAuthSecret(say);
  const db = await startDatabase({ log: say });
  say(db.embedded ? `embedded PostgreSQL ready (data in ${dataDir()})` : "using DATABASE_URL");
  await ensureConfiguredStore();
  if (mode === "dev") {
    const demo = await seedDemoOnce({ dataDir: dataDir(), port: env().PORT });
    for (const line of demo.lines) say(line);
  }
  await disconnectDb();

  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, mode, "-p", String(env().PORT)], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await db.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  child.on("exit", (code) => void shutdown(code ?? 1));
}

main().catch((err: unknown) => {
  process.stderr.write(`[rx-transfer] could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
