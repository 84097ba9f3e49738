// `user …`: dashboard users (the same operations and input schemas as Administration → Users). A user is
// named by id or by email.
import { CLI_ACTOR } from "@/lib/audit/actor";
import { resetTwoFactor } from "@/lib/auth/two-factor/reset-two-factor";
import { endAllUserSessions } from "@/lib/auth/user-sessions";
import { CliUsageError, switchFlag, type CliCommand } from "@/lib/cli/command-table";
import { parseFlags } from "@/lib/cli/flag-input";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { createUser } from "@/lib/users/create-user";
import { changeUserRole } from "@/lib/users/change-user-role";
import { listUsers } from "@/lib/users/list-users";
import { resetUserPassword } from "@/lib/users/reset-user-password";
import { setUserDisabled } from "@/lib/users/set-user-disabled";
import { setUserLicenseNumber } from "@/lib/users/set-user-license-number";
import { USER_ROLES } from "@/lib/users/roles";
import {
  CreateUserWithLicenseSchema,
  LicenseInputSchema,
  ResetPasswordInputSchema,
  UpdateUserInputSchema,
} from "@/lib/users/user-inputs";

const user = [{ name: "userId|email" }] as const;
const roles = USER_ROLES.join("|");

/** A user named by id or by email. */
async function userIdOf(ref: string): Promise<string> {
  if (!ref.includes("@")) return ref;
  const found = await db().user.findUnique({ where: { email: ref.trim().toLowerCase() }, select: { id: true } });
  if (!found) throw new DomainError("not_found", `no user with email ${ref}`);
  return found.id;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function disabling(verb: "disable" | "enable"): CliCommand {
  return {
    noun: "user",
    verb,
    args: user,
    summary: [
      verb === "disable" ? "the user can no longer sign in (their sessions end)" : "the user can sign in again",
    ],
    async run({ args: [ref = ""] }) {
      const userId = await userIdOf(ref);
      const disabled = verb === "disable";
      await setUserDisabled({ userId, disabled, actor: CLI_ACTOR });
      return { json: { userId, disabled }, human: `${userId} ${disabled ? "disabled" : "enabled"}` };
    },
  };
}

export const USER_COMMANDS: readonly CliCommand[] = [
  {
    noun: "user",
    verb: "create",
    flags: [
      { name: "email", value: "<e>", required: true },
      { name: "password", value: "<p>", required: true },
      { name: "role", value: roles, required: true },
      { name: "name", value: "<name>" },
      { name: "license", value: "<number>" },
    ],
    summary: ["a dashboard user"],
    async run({ values }) {
      const input = parseFlags(CreateUserWithLicenseSchema, values, {
        email: "email",
        password: "password",
        role: "role",
        name: "name",
        licenseNumber: "license",
      });
      const created = await createUser({ ...input, actor: CLI_ACTOR });
      return { json: created, human: `user ${created.userId}` };
    },
  },
  {
    noun: "user",
    verb: "list",
    summary: ["users with their role, licence number and state"],
    async run() {
      const users = await listUsers();
      return {
        json: { users },
        human:
          users
            .map(
              (u) =>
                `${u.userId}  ${u.email}  ${u.role}${u.licenseNumber ? `  licence ${u.licenseNumber}` : ""}${u.disabled ? " (disabled)" : ""}`,
            )
            .join("\n") || "no users",
      };
    },
  },
  {
    noun: "user",
    verb: "license",
    args: user,
    flags: [{ name: "license", value: "<number>" }, { name: "clear" }],
    synopsis: "--license <number> | --clear",
    summary: ["the pharmacist's licence number, printed on the records they approve"],
    async run({ args: [ref = ""], values }) {
      const clear = switchFlag(values, "clear");
      if (clear === (values.license !== undefined)) throw new CliUsageError("give --license <number> or --clear");
      const { licenseNumber } = parseFlags(
        LicenseInputSchema,
        values,
        { licenseNumber: "license" },
        clear ? { licenseNumber: null } : {},
      );
      const userId = await userIdOf(ref);
      const result = await setUserLicenseNumber({ userId, licenseNumber, actor: CLI_ACTOR });
      return {
        json: result,
        human: result.licenseNumber
          ? `${userId} licence number ${result.licenseNumber}`
          : `${userId} has no licence number`,
      };
    },
  },
  {
    noun: "user",
    verb: "role",
    args: user,
    flags: [{ name: "role", value: roles, required: true }],
    summary: ["change the user's role (never the last active admin's)"],
    async run({ args: [ref = ""], values }) {
      const { role } = parseFlags(UpdateUserInputSchema, values, { role: "role" });
      const userId = await userIdOf(ref);
      await changeUserRole({ userId, role: role ?? "", actor: CLI_ACTOR });
      return { json: { userId, role }, human: `${userId} is now ${role}` };
    },
  },
  disabling("disable"),
  disabling("enable"),
  {
    noun: "user",
    verb: "reset-password",
    args: user,
    flags: [{ name: "password", value: "<p>", required: true }],
    summary: ["a new password; their sessions are ended"],
    async run({ args: [ref = ""], values }) {
      const { password } = parseFlags(ResetPasswordInputSchema, values, { password: "password" });
      const userId = await userIdOf(ref);
      await resetUserPassword({ userId, password, actor: CLI_ACTOR });
      return { json: { userId, passwordReset: true }, human: `password reset for ${userId}; their sessions are ended` };
    },
  },
  {
    noun: "user",
    verb: "end-sessions",
    args: user,
    summary: ["sign the user out everywhere at once (they can sign in again)"],
    async run({ args: [ref = ""] }) {
      const userId = await userIdOf(ref);
      const result = await endAllUserSessions(userId, CLI_ACTOR, "admin");
      return { json: result, human: `${userId}: ${plural(result.sessionsEnded, "open session")} ended` };
    },
  },
  {
    noun: "user",
    verb: "mfa-reset",
    args: user,
    summary: [
      "reset two-factor sign-in (lost phone): secret and recovery codes dropped,",
      "every session ended; they enrol again at their next sign-in",
    ],
    async run({ args: [ref = ""] }) {
      const userId = await userIdOf(ref);
      const result = await resetTwoFactor(userId, CLI_ACTOR);
      return {
        json: result,
        human: `${userId}: two-factor sign-in reset${result.wasEnabled ? "" : " (it was not on)"}; ${plural(result.sessionsEnded, "session")} ended`,
      };
    },
  },
];
