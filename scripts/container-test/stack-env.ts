// The stack's settings: .env.example filled in, in the test's own folder beside a copy of compose.yaml (a
// developer's .env is never read or touched), for a store of its own on a free port.
import { randomBytes } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { computeNpiCheckDigit } from "@/lib/interface";
import { ROOT, WORK_DIR } from "./podman";
import { freePort } from "./probes";
import { check } from "./report";

/** Where the stack answers, and the NPI of the store it is. */
export type StackEnv = { base: string; webPort: number; npi: string };

/** A valid NPI that is not the demo's, for this test's store. */
function storeNpi(): string {
  const nine = `1${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, "0")}`;
  return `${nine}${computeNpiCheckDigit(nine)}`;
}

export async function writeStackEnv(): Promise<StackEnv | null> {
  const webPort = await freePort();
  const npi = storeNpi();
  const key = () => randomBytes(32).toString("base64");
  copyFileSync(path.join(ROOT, "compose.yaml"), path.join(WORK_DIR, "compose.yaml"));
  const filled: Record<string, string> = {
    POSTGRES_PASSWORD: randomBytes(16).toString("hex"),
    AUTH_SECRET: key(),
    DATA_ENCRYPTION_KEY: key(),
    AUDIT_HMAC_KEY: key(),
    PHARMACY_NPI: npi,
    PHARMACY_NAME: "Container Test Pharmacy",
    PUBLIC_URL: `http://127.0.0.1:${webPort}`,
    SHUTDOWN_DRAIN_SECONDS: "3",
    WEB_PORT: `127.0.0.1:${webPort}`,
  };
  const unfilled = new Set(Object.keys(filled));
  const dotEnv = readFileSync(path.join(ROOT, ".env.example"), "utf8").replace(
    /^([A-Z_]+)=.*$/gm,
    (line, name: string) => (unfilled.delete(name) ? `${name}=${filled[name]}` : line),
  );
  if (!check(".env is .env.example filled in", unfilled.size === 0, [...unfilled].join(", "))) return null;
  writeFileSync(path.join(WORK_DIR, ".env"), dotEnv, { mode: 0o600 });
  return { base: `http://127.0.0.1:${webPort}`, webPort, npi };
}
