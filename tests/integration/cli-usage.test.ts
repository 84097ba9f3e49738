// The command table at the edge, as an operator meets it: real `npm run cli` processes. Usage made from the
// table; an unknown command or flag is exit code 2 with a precise message on stderr (and nothing started);
// a value the admin API's schema refuses is exit code 1 naming the flag, and the database is unchanged.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CallbackUrlInputSchema, RotateApiKeyInputSchema } from "@/lib/partners/partner-inputs";
import { CreateUserInputSchema } from "@/lib/users/user-inputs";
import { CLI_COMMANDS, CLI_USAGE } from "@/lib/cli/commands";
import { commandUsage, nounUsage } from "@/lib/cli/usage";
import { db } from "@/lib/db/prisma";
import { MAX_KEY_OVERLAP_HOURS } from "@/lib/partners/credential-rules";
import { createTestPartner } from "@/tests/support/api";
import { runCli } from "@/tests/support/cli";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();
const env = { DATABASE_URL: databaseUrl, ...TEST_SECRETS };

/** What the API's schema says about a value: the CLI must say the same, with the flag named. */
function schemaMessages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => i.message);
}

describe("npm run cli: the command table", () => {
  it("prints the usage made from the table: all of it, or one noun's", async () => {
    const all = await runCli(["--help"], env);
    expect(all.code).toBe(0);
    expect(all.json).toEqual({ usage: CLI_USAGE }); // --json: one JSON object, the usage in it
    const partner = await runCli(["partner", "--help"], env);
    expect(partner.code).toBe(0);
    expect(partner.json).toEqual({ usage: nounUsage(CLI_COMMANDS, "partner") });
  });

  it("refuses an unknown command or flag with exit code 2, the message and the usage on stderr", async () => {
    const unknown = await runCli(["launch", "rockets"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toEqual({ error: { code: "usage", message: "unknown command: launch rockets" } });
    expect(unknown.stderr).toBe(`error: unknown command: launch rockets\n\n${CLI_USAGE}`);

    const list = CLI_COMMANDS.find((c) => c.noun === "partner" && c.verb === "list")!;
    const flag = await runCli(["partner", "list", "--email", "pat@pharmacy.test"], env);
    expect(flag.code).toBe(2);
    expect(flag.json).toEqual({ error: { code: "usage", message: "unknown option --email for partner list" } });
    expect(flag.stderr).toBe(`error: unknown option --email for partner list\n\n${commandUsage(list)}`);
  });

  it("refuses a value the API's schema refuses, naming the flag, and changes nothing", async () => {
    const name = `Refused ${randomUUID().slice(0, 8)}`;
    const url = "ftp://refused.example/cb";
    const partner = await runCli(["partner", "create", "--name", name, "--callback-url", url], env);
    expect(partner.code).toBe(1);
    const [urlMessage] = schemaMessages(CallbackUrlInputSchema.safeParse({ callbackUrl: url }));
    expect(partner.json).toEqual({ error: { code: "invalid_input", message: `--callback-url: ${urlMessage}` } });
    expect(await db().partner.count({ where: { name } })).toBe(0);

    const existing = await createTestPartner("CLI Overlap");
    const keysBefore = await db().apiKey.findMany({ where: { partnerId: existing.partnerId }, orderBy: { id: "asc" } });
    const keyId = keysBefore[0]!.id;
    const hours = String(MAX_KEY_OVERLAP_HOURS + 1);
    const rotate = await runCli(["key", "rotate", keyId, "--overlap-hours", hours], env);
    expect(rotate.code).toBe(1);
    const [overlapMessage] = schemaMessages(RotateApiKeyInputSchema.safeParse({ overlapHours: hours }));
    expect(rotate.json).toEqual({ error: { code: "invalid_input", message: `--overlap-hours: ${overlapMessage}` } });
    expect(await db().apiKey.findMany({ where: { partnerId: existing.partnerId }, orderBy: { id: "asc" } })).toEqual(
      keysBefore,
    );

    // Every refused flag is named, each with the schema's own words.
    const email = `refused-${randomUUID().slice(0, 8)}@pharmacy.test`;
    const user = await runCli(["user", "create", "--email", email, "--password", "short", "--role", "root"], env);
    expect(user.code).toBe(1);
    const [passwordMessage] = schemaMessages(CreateUserInputSchema.shape.password.safeParse("short"));
    const [roleMessage] = schemaMessages(CreateUserInputSchema.shape.role.safeParse("root"));
    expect((user.json.error as { message: string }).message.split("; ").sort()).toEqual([
      `--password: ${passwordMessage}`,
      `--role: ${roleMessage}`,
    ]);
    expect(await db().user.count({ where: { email } })).toBe(0);
  }, 90_000);
});
