import { describe, expect, it } from "vitest";
import { CLI_COMMANDS, CLI_USAGE } from "@/lib/cli/commands";
import { CliUsageError } from "@/lib/cli/command-table";
import { parseCommandLine } from "@/lib/cli/parse-command-line";
import { commandUsage, nounUsage } from "@/lib/cli/usage";

const parse = (...argv: string[]) => parseCommandLine(argv, CLI_COMMANDS);
const command = (noun: string, verb?: string) => CLI_COMMANDS.find((c) => c.noun === noun && c.verb === verb)!;

/** The usage error a command line gets (the test fails if it parses). */
function refusal(...argv: string[]): CliUsageError {
  try {
    parse(...argv);
  } catch (err) {
    if (err instanceof CliUsageError) return err;
    throw err;
  }
  throw new Error(`parsed: ${argv.join(" ")}`);
}

describe("parseCommandLine", () => {
  it("finds the command and gives its arguments and flags", () => {
    const parsed = parse(
      "partner",
      "update",
      "prt_1",
      "--name",
      "Acme",
      "--npi",
      "1558598797",
      "--npi",
      "1234567893",
      "--json",
    );
    expect(parsed).toMatchObject({
      kind: "run",
      command: command("partner", "update"),
      args: ["prt_1"],
      values: { name: "Acme", npi: ["1558598797", "1234567893"], json: true },
      json: true,
    });
    expect(parse("--json", "restore", "--yes", "b.gz")).toMatchObject({
      kind: "run",
      command: command("restore"),
      args: ["b.gz"],
      values: { yes: true },
    });
  });

  it("refuses arguments PostgreSQL cannot store as a usage error naming each, before any database work", () => {
    const err = refusal(
      "partner",
      "update",
      "prt_\u0000",
      "--name",
      "Acme\ud800",
      "--npi",
      "1558598797",
      "--npi",
      "x\u0000",
    );
    expect(err.message).toBe(
      "argument 3 contains a NUL character; --name is not valid Unicode (unpaired surrogate); --npi contains a NUL character",
    );
  });

  it("prints the usage made from the table: all of it, one noun's, one command's", () => {
    expect(parse()).toEqual({ kind: "help", text: CLI_USAGE });
    expect(parse("help")).toEqual({ kind: "help", text: CLI_USAGE });
    expect(parse("--help")).toEqual({ kind: "help", text: CLI_USAGE });
    expect(parse("partner", "--help")).toEqual({ kind: "help", text: nounUsage(CLI_COMMANDS, "partner") });
    expect(parse("help", "user")).toEqual({ kind: "help", text: nounUsage(CLI_COMMANDS, "user") });
    expect(parse("key", "rotate", "--help")).toEqual({ kind: "help", text: commandUsage(command("key", "rotate")) });
    expect(parse("backup", "--help")).toEqual({ kind: "help", text: commandUsage(command("backup")) });
  });

  it("names an unknown command or flag, with the usage that applies", () => {
    expect(refusal("launch", "rockets")).toMatchObject({
      message: "unknown command: launch rockets",
      usage: CLI_USAGE,
    });
    expect(refusal("partner", "frobnicate")).toMatchObject({
      message: "unknown command: partner frobnicate",
      usage: nounUsage(CLI_COMMANDS, "partner"),
    });
    expect(refusal("partner").message).toBe(
      "partner needs a command: create, list, show, update, suspend, resume, set-callback, rotate-secret, set-credential",
    );
    // --email is a flag of other commands, not of this one.
    expect(refusal("partner", "list", "--email", "a@b.test")).toMatchObject({
      message: "unknown option --email for partner list",
      usage: commandUsage(command("partner", "list")),
    });
    expect(refusal("key", "rotate", "key_1", "--overlap=2").message).toBe("unknown option --overlap for key rotate");
    // A value that looks like a flag is not taken for an unknown flag: parseArgs asks for --password=… instead.
    expect(refusal("user", "reset-password", "u@x.test", "--password", "--x-y").message).toMatch(
      /^Option '--password' argument is ambiguous/,
    );
    expect(parse("user", "reset-password", "u@x.test", "--password=--x-y")).toMatchObject({
      values: { password: "--x-y" },
    });
  });

  it("refuses missing arguments and required flags, and extra arguments, by name", () => {
    expect(refusal("partner", "create", "--name", "No URL").message).toBe("--callback-url is required");
    expect(refusal("partner", "create", "--name", "", "--callback-url", "https://x.example").message).toBe(
      "--name is required",
    );
    expect(refusal("partner", "show").message).toBe("partnerId is required");
    expect(refusal("key", "revoke", "key_1", "key_2").message).toBe("unexpected argument: key_2");
    expect(refusal("backup", "now").message).toBe("unexpected argument: now");
    expect(refusal("key", "rotate", "key_1", "--overlap-hours").message).toMatch(/--overlap-hours/);
    expect(refusal("partner", "suspend", "prt_1", "--json=yes").message).toMatch(/--json/);
  });
});
