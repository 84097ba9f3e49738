import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

const root = path.dirname(fileURLToPath(import.meta.url));

// The Prisma CLI downloads a native schema engine from Prisma's binary host, which this network cannot
// reach. prisma/engine/schema-engine.mjs speaks the same protocol over the WASM schema engine and
// @prisma/adapter-pg (see its header). The CLI loads this file before it looks for the engine, so
// setting the variable here is enough; an explicitly exported value still wins.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(root, "prisma", "engine", "schema-engine.mjs");

export default defineConfig({
  schema: path.join(root, "prisma", "schema.prisma"),
  migrations: { path: path.join(root, "prisma", "migrations") },
  // Not env("DATABASE_URL"): that throws when unset, and `prisma generate` needs no database.
  datasource: { url: process.env.DATABASE_URL },
});
