// `transfers …`: the transfer log for inspections (CSV, the same query parser as the export API) and an
// approved transfer's FHIR R4 Bundle (the same JSON with or without --json), for loading by hand into a
// dispensing system. Both are audited as their downloads are.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { joinLines, requiredFlag, textFlag, type CliCommand } from "@/lib/cli/command-table";
import { getTransferBundle } from "@/lib/fhir/get-transfer-bundle";
import { exportTransfers, parseTransferExportQuery } from "@/lib/transfers/record";

/** Writes the lines to a file as they come, honouring back-pressure. */
async function writeLines(path: string, lines: AsyncIterable<string>): Promise<void> {
  const file = createWriteStream(path, { flags: "w" });
  const failed = new Promise<never>((_, reject) => file.once("error", reject));
  try {
    for await (const line of lines) {
      if (!file.write(line)) await Promise.race([once(file, "drain"), failed]);
    }
  } finally {
    file.end();
  }
  await Promise.race([once(file, "finish"), failed]);
}

export const TRANSFER_COMMANDS: readonly CliCommand[] = [
  {
    noun: "transfers",
    verb: "export",
    flags: [
      { name: "from", value: "<date>", required: true },
      { name: "to", value: "<date>", required: true },
      { name: "schedule", value: "II|III|IV|V|any|all" },
      { name: "outcome", value: "approved|rejected|any" },
      { name: "out", value: "<file>" },
    ],
    summary: [
      "the transfer log for inspections as CSV (decision dates: from inclusive, to",
      "exclusive; ISO dates are UTC days): every record element, oldest first; stdout",
      "unless --out; audited. Defaults: every schedule, approved transfers",
    ],
    async run({ values, json }) {
      const query = parseTransferExportQuery({
        from: requiredFlag(values, "from"),
        to: requiredFlag(values, "to"),
        schedule: textFlag(values, "schedule"),
        outcome: textFlag(values, "outcome"),
      });
      const exported = await exportTransfers(query, CLI_ACTOR);
      const summary = {
        filename: exported.filename,
        rows: exported.rows,
        filters: { from: query.from, to: query.to, schedule: query.schedule, outcome: query.outcome },
      };
      const out = textFlag(values, "out");
      if (out) {
        await writeLines(out, exported.lines);
        return { json: { ...summary, out }, human: `${exported.rows} transfers written to ${out}` };
      }
      if (json) {
        const csv = await joinLines(exported.lines);
        return { json: { ...summary, csv }, human: csv };
      }
      return { json: summary, human: "", stream: exported.lines };
    },
  },
  {
    noun: "transfers",
    verb: "fhir",
    args: [{ name: "referenceID" }],
    summary: ["the approved transfer's FHIR R4 Bundle (JSON) for the dispensing system; audited"],
    async run({ args: [referenceID = ""] }) {
      const bundle = await getTransferBundle({ referenceID });
      await recordAuditEvent({
        actor: CLI_ACTOR,
        action: "transfer.fhir_downloaded",
        transferId: referenceID,
        details: { via: "cli" },
      });
      return { json: bundle, human: JSON.stringify(bundle, null, 2) };
    },
  },
];
