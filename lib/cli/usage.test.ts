import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_COMMANDS, CLI_USAGE } from "@/lib/cli/commands";
import { commandCall, commandName, commandUsage, nounUsage } from "@/lib/cli/usage";

// The operators' page for the command line shows the usage text as the CLI prints it.
const CLI_DOC = readFileSync(path.join(import.meta.dirname, "../../docs/operators/cli.md"), "utf8");
const nouns = [...new Set(CLI_COMMANDS.map((c) => c.noun))];

describe("the CLI's usage text, made from the command table", () => {
  it("has each command once, with every argument and flag it takes", () => {
    const names = CLI_COMMANDS.map(commandName);
    expect(new Set(names).size).toBe(names.length);
    for (const command of CLI_COMMANDS) {
      const call = commandCall(command);
      for (const arg of command.args ?? []) expect(call, commandName(command)).toContain(`<${arg.name}>`);
      for (const flag of command.flags ?? [])
        expect(call, commandName(command)).toMatch(new RegExp(`--${flag.name}\\b`));
      // The whole text names it with its summary; its own usage names nothing else.
      const flat = (text: string) => text.replace(/\s+/g, " ");
      expect(flat(CLI_USAGE)).toContain(flat(`${call} ${command.summary.join(" ")}`));
      const others = CLI_COMMANDS.filter((c) => c !== command).map(commandCall);
      expect(others.filter((other) => commandUsage(command).includes(`  ${other}`) && !call.startsWith(other))).toEqual(
        [],
      );
    }
  });

  it("shows one noun's commands and no other's", () => {
    for (const noun of nouns) {
      const text = nounUsage(CLI_COMMANDS, noun);
      for (const command of CLI_COMMANDS) {
        const line = `\n  ${commandName(command)}`;
        if (command.noun === noun) expect(text).toContain(line);
        else if (!commandName(command).startsWith(noun)) expect(text).not.toContain(`${line} `);
      }
    }
  });

  it("is in docs/operators/cli.md as `npm run cli -- --help` prints it", () => {
    expect(CLI_DOC).toContain(CLI_USAGE);
  });
});
