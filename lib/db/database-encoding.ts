// The service stores names, directions and notes as Unicode text and counts limits in characters: in a
// database that is not UTF8 (SQL_ASCII, which initdb picks under the C or POSIX locale, or LATIN1…),
// PostgreSQL either rejects such text or stores bytes it cannot interpret, so lower(), lengths and searches
// go wrong quietly. db:deploy checks before it migrates anything.

import pg from "pg";

const DATABASE_MISSING = "3D000";

/**
 * Why the database at `databaseUrl` cannot hold this service's data, or `null` when it is UTF8 (or does not
 * exist yet: the database the migrations then create is checked after them).
 */
export async function findDatabaseEncodingProblem(databaseUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {}); // a dropped connection surfaces through the awaited calls
  try {
    await client.connect();
  } catch (err) {
    if ((err as { code?: string }).code === DATABASE_MISSING) return null;
    throw err;
  }
  try {
    const { rows } = await client.query<{ name: string; encoding: string }>(
      "SELECT current_database() AS name, pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database()",
    );
    const { name, encoding } = rows[0]!;
    if (encoding === "UTF8") return null;
    return [
      `database "${name}" is encoded ${encoding}; this service needs UTF8 (names and notes are Unicode text).`,
      `Create it in UTF8 as its owner, e.g. CREATE DATABASE "${name}" ENCODING 'UTF8' LOCALE 'en_US.UTF-8' TEMPLATE template0`,
      "(any UTF-8 locale the server has; or initdb the server with --encoding=UTF8), then run db:deploy again.",
      "Data already in it moves with pg_dump and a restore into the new database.",
    ].join("\n");
  } finally {
    await client.end().catch(() => {});
  }
}
