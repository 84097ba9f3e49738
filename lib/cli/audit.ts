// `audit …`: the audit log's integrity check, and the log itself with the same filters (and query parser)
// as Administration → Audit log.
import { parseAuditQuery } from "@/lib/audit/audit-query";
import { exportAuditLog } from "@/lib/audit/export-audit-log";
import { queryAuditLog } from "@/lib/audit/query-audit-log";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { parseChainHeads, verifyAuditChain, type VerifyOptions } from "@/lib/audit/verify-audit-chain";
import {
  CliUsageError,
  joinLines,
  textFlag,
  type CliCommand,
  type CliFlag,
  type FlagValues,
} from "@/lib/cli/command-table";

const FILTERS: readonly CliFlag[] = [
  { name: "user", value: "<email|id>" },
  { name: "action", value: "<a|prefix.*>" },
  { name: "transfer", value: "<id>" },
  { name: "from", value: "<iso>" },
  { name: "to", value: "<iso>" },
  { name: "order", value: "newest|oldest" },
  { name: "limit", value: "<n>" },
  { name: "cursor", value: "<id>" },
];

/** The audit filters given on the command line, as the API's query string takes them. */
function auditParams(values: FlagValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const { name } of FILTERS) {
    const value = textFlag(values, name);
    if (value !== undefined) params.set(name, value);
  }
  return params;
}

/** --head <hash> [--head-id <id>]: a chain head as the server logged it. */
function expectedHeadOption(values: FlagValues): VerifyOptions["expectedHead"] {
  const hash = textFlag(values, "head");
  const id = textFlag(values, "head-id");
  if (hash === undefined) {
    if (id !== undefined) throw new CliUsageError("--head-id needs --head <hash>");
    return undefined;
  }
  if (hash.includes(":")) {
    // The set of heads ("heads" in the log line): every chain's last record must still be there.
    const heads = parseChainHeads(hash);
    if (!heads)
      throw new CliUsageError(
        '--head must be the "heads" value (chain:id:hash,...) or a record hash from an "audit chain head" log line',
      );
    if (id !== undefined)
      throw new CliUsageError("--head-id goes with a single record hash, not with the set of heads");
    return { heads };
  }
  if (!/^[0-9a-f]{64}$/.test(hash))
    throw new CliUsageError(
      '--head must be a record hash (64 hex digits) or the "heads" value from an "audit chain head" log line',
    );
  if (id !== undefined && !/^\d{1,19}$/.test(id)) throw new CliUsageError("--head-id must be a record id (digits)");
  return { hash, id };
}

export const AUDIT_COMMANDS: readonly CliCommand[] = [
  {
    noun: "audit",
    verb: "verify",
    flags: [
      { name: "head", value: "<heads>" },
      { name: "head-id", value: "<id>" },
    ],
    synopsis: "[--head <heads> | --head <hash> [--head-id <id>]]",
    summary: [
      "check the audit log's keyed hash chains; exit 1 and name the first broken record.",
      '--head: heads the server logged earlier ("audit chain head": its "heads" value,',
      'or one "hash") must still be in the log (detects truncation or a rewrite)',
    ],
    async run({ values }) {
      const report = await verifyAuditChain({ expectedHead: expectedHeadOption(values) });
      if (report.ok) {
        const head = report.head ? `; head ${report.head.id} ${report.head.hash}` : "";
        return {
          json: report,
          human: `audit chain intact: ${report.records} records${values.head ? ", the recorded head is in it" : ""}${head}`,
        };
      }
      const b = report.brokenAt;
      return {
        json: report,
        human: `audit chain BROKEN at record ${b.id} (${b.at}, ${b.action}): ${b.reason}; ${report.records} records before it verified`,
        exitCode: 1,
      };
    },
  },
  {
    noun: "audit",
    verb: "list",
    flags: FILTERS,
    summary: ["one page of the audit log (nextCursor for the next)"],
    async run({ values }) {
      const page = await queryAuditLog(parseAuditQuery(auditParams(values)));
      const human = page.items.length
        ? page.items
            .map((e) => `${e.id}  ${e.at}  ${e.actor}  ${e.action}${e.transferId ? `  ${e.transferId}` : ""}`)
            .join("\n") + (page.nextCursor ? `\nmore: --cursor ${page.nextCursor}` : "")
        : "no records";
      return { json: page, human };
    },
  },
  {
    noun: "audit",
    verb: "export",
    flags: FILTERS,
    summary: ["the matching records as CSV, oldest first (the export is audited)"],
    async run({ values }) {
      const exported = await exportAuditLog({ query: parseAuditQuery(auditParams(values)), actor: CLI_ACTOR });
      const csv = await joinLines(exported.lines);
      return { json: { filename: exported.filename, records: exported.records, csv }, human: csv.replace(/\r\n$/, "") };
    },
  },
];
