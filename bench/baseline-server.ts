// The intake baseline: a minimal node:http server doing the same essential work as POST /v1/transfer —
// API key hash lookup, JSON parse, the same validation (the same function), one insert of the same row
// through pg — and nothing else. What our Next route is measured against.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";
import { hashRequestContent, classifyTransfer, activeRxKey } from "@/lib/transfers/intake";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { DEFAULT_EARLY_REFILL_ALLOWANCE } from "@/lib/transfers/review";
import { validateTransferRequest } from "@/lib/interface";

const port = Number(process.argv[2]);
const databaseUrl = process.argv[3]!;
const storeNpis = new Set([process.argv[4]!]);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

function send(res: import("node:http").ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    try {
      const auth = req.headers.authorization ?? "";
      const key = auth.replace(/^senderKey\s+/i, "");
      const found = await pool.query<{ partner_id: string }>(
        `SELECT k.partner_id FROM api_keys k JOIN partners p ON p.id = k.partner_id
          WHERE k.hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()) AND p.suspended_at IS NULL`,
        [createHash("sha256").update(key).digest("hex")],
      );
      const partnerId = found.rows[0]?.partner_id;
      if (!partnerId) return send(res, 401, { error: "unauthorized" });
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const result = validateTransferRequest(body, { storeNpis, now: new Date() });
      if (!result.ok) return send(res, 400, { error: result.type });
      const r = result.request;
      const drug = classifyTransfer(r, DEFAULT_STORE_RULES, new Date(), {
        earlyRefillAllowance: DEFAULT_EARLY_REFILL_ALLOWANCE,
      });
      const id = `trf_${randomBytes(10).toString("hex")}`;
      const response = {
        requestID: r.metadata.requestID,
        metadata: {
          responseType: "RECEIVED",
          referenceID: id,
          responseID: `rsp_${randomBytes(10).toString("hex")}`,
          responseTimestamp: new Date().toISOString(),
        },
      };
      const inserted = await pool.query(
        `INSERT INTO transfers (id, partner_id, request_id, content_hash, status, active_rx_key,
           patient_first_name, patient_last_name, patient_search, patient_dob, sending_npi, sending_name, receiving_npi,
           rx_number, drug_name, drug_strength, has_allergies, drug_schedule, allergy_alert, drug_substance_key, check_flags, warns_from, received_at, request, response, response_id)
         VALUES ($1,$2,$3,$4,'RECEIVED',$5,$6,$7,$8,$9::date,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20::text[],$21::date,now(),$22::jsonb,$23::jsonb,$24)
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          id,
          partnerId,
          r.metadata.requestID,
          hashRequestContent(r),
          activeRxKey(r),
          r.patient.name.firstName,
          r.patient.name.lastName,
          `${r.patient.name.lastName} ${r.patient.name.firstName}`.toLowerCase(),
          r.patient.dateOfBirth,
          r.sendingPharmacy.npi,
          r.sendingPharmacy.name,
          r.receivingPharmacy.npi,
          r.prescription.rxNumber,
          r.prescription.medicationName,
          r.prescription.drugStrength,
          r.patient.allergyDetails.allergies.length > 0,
          drug.drugSchedule,
          drug.allergyAlert,
          drug.substanceKey ?? "",
          drug.checkFlags,
          drug.warnsFrom,
          JSON.stringify(r),
          JSON.stringify(response),
          response.metadata.responseID,
        ],
      );
      send(res, inserted.rowCount ? 200 : 400, response);
    } catch (err) {
      send(res, 500, { error: String(err) });
    }
  });
});

server.listen(port, "127.0.0.1", () => process.stdout.write(`baseline listening on ${port}\n`));
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
