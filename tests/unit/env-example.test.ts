// .env.example (what compose.yaml passes to every service) lists exactly the production settings that
// docs/operators/deploy.md's table explains, less the two compose.yaml sets itself, plus the two it reads;
// and the example's own values are accepted as a production environment's once the blanks are filled in.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env-schema";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SET_BY_COMPOSE = ["DATABASE_URL", "RUN_WORKER"];
const READ_BY_COMPOSE = ["POSTGRES_PASSWORD", "WEB_PORT"];

function exampleEntries(): [string, string][] {
  return readFileSync(path.join(ROOT, ".env.example"), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
}

/** The settings named in the first column of deploy.md's settings table. */
function deployTableSettings(): string[] {
  const doc = readFileSync(path.join(ROOT, "docs/operators/deploy.md"), "utf8");
  const table = doc.split("\n").filter((line) => line.startsWith("| `"));
  return table.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!));
}

describe(".env.example", () => {
  it("names each production setting of deploy.md once, and compose.yaml's own two", () => {
    const names = exampleEntries().map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    const expected = [...deployTableSettings().filter((n) => !SET_BY_COMPOSE.includes(n)), ...READ_BY_COMPOSE];
    expect([...names].sort()).toEqual([...new Set(expected)].sort());
  });

  it("its values, blanks filled in, parse as settings", () => {
    const filled: Record<string, string> = {
      AUTH_SECRET: "a".repeat(44),
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
      AUDIT_HMAC_KEY: Buffer.alloc(32, 2).toString("base64"),
      PHARMACY_NPI: "1679576722",
      PHARMACY_NAME: "Main Street Pharmacy",
      PUBLIC_URL: "https://rx.pharmacy.example",
      DATABASE_URL: "postgres://rx_transfer:pw@db:5432/rx_transfer",
    };
    const source = Object.fromEntries(
      exampleEntries()
        .filter(([name]) => !READ_BY_COMPOSE.includes(name))
        .map(([name, value]) => [name, filled[name] ?? value]),
    );
    expect(() => parseEnv({ ...source, DATABASE_URL: filled.DATABASE_URL, NODE_ENV: "production" })).not.toThrow();
  });
});
