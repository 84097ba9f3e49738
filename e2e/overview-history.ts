// A month of a busy pharmacy's transfers written straight into the e2e database, for the docs' picture of the
// overview only (UPDATE_DOCS_SCREENSHOTS=1): about 110 transfers a day over opening hours shaped like a real
// day, 12 % rejected by error type, most decided within an hour and a few past the sender's 4-hour window,
// each decided one with its callback (a few still retrying), today's undecided ones pending, and the
// partners' /v1 answers of the last hour. Then the overview's rollups are rebuilt, as the worker would have
// kept them. Not part of the suite's checks: the figures are checked in tests/integration/overview-figures.test.ts.
import { db } from "../lib/db/prisma";
import { rebuildOverviewRollups } from "../lib/overview/rebuild-overview-rollups";
import { connect } from "./dashboard-helpers";

const NAMES = ["Garcia", "Nguyen", "Okafor", "Smith", "Kowalski", "Haddad", "Johnson", "Rossi", "Tanaka", "Brown"];

export async function seedOverviewHistory(partnerIds: string[], timeZone: string): Promise<void> {
  connect();
  await db().$executeRaw`
    INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, received_at, decided_at, request, response, response_id)
    SELECT 'trf_ovdoc_' || n, (${partnerIds}::text[])[1 + n % cardinality(${partnerIds}::text[])], 'ovdoc-' || n,
           md5(n::text),
           (CASE WHEN s.decided_at IS NULL THEN 'RECEIVED' WHEN n % 8 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
           'Pat', (${NAMES}::text[])[1 + n % 10], lower((${NAMES}::text[])[1 + n % 10]) || ' pat', '1960-01-01',
           '1843501234', 'Sender Pharmacy', '1245319599', 'OVDOC' || n, 'Atorvastatin', '20 mg', n % 4 = 0,
           s.received_at, s.decided_at, '{}'::jsonb, '{}'::jsonb, 'rsp_ovdoc_' || n
      FROM (SELECT row_number() OVER () AS n, received_at,
                   CASE WHEN received_at + make_interval(mins => minutes) < now()
                        THEN received_at + make_interval(mins => minutes) END AS decided_at
              FROM (SELECT ((date_trunc('day', now() AT TIME ZONE ${timeZone}) - make_interval(days => d)
                             + make_interval(hours => h, mins => (random() * 59)::int)) AT TIME ZONE ${timeZone})
                             AS received_at,
                           (4 + random() ^ 3 * 150 + CASE WHEN random() < 0.03 THEN 200 ELSE 0 END)::int AS minutes
                      FROM generate_series(0, 29) AS d,
                           (VALUES (7, 3), (8, 6), (9, 9), (10, 12), (11, 13), (12, 9), (13, 8), (14, 11), (15, 12),
                                   (16, 10), (17, 8), (18, 5), (19, 3), (20, 2)) AS w(h, usual),
                           LATERAL generate_series(1, usual + (random() * usual / 3)::int) AS k) AS slot
             WHERE received_at < now()) AS s`;
  await db().$executeRaw`
    INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, response)
    SELECT id, (CASE WHEN status = 'REJECTED' THEN 'REJECTED' ELSE 'APPROVED' END)::"Decision",
           (SELECT id FROM users ORDER BY created_at LIMIT 1), 'Robin Overview, PharmD', decided_at,
           CASE WHEN status = 'REJECTED'
                THEN (ARRAY['RX_EXPIRED', 'MISSING_INFO', 'INVALID_INFO', 'RX_EXPIRED', 'MISSING_INFO'])[1 + abs(hashtext(id)) % 5] END,
           '{}'::jsonb
      FROM transfers WHERE id LIKE 'trf_ovdoc_%' AND decided_at IS NOT NULL`;
  await db().$executeRaw`
    INSERT INTO callbacks (id, transfer_id, partner_id, payload, status, attempt_count, delivered_at, created_at)
    SELECT 'cb_' || id, id, partner_id, '{}'::jsonb, c.status::"CallbackStatus",
           CASE WHEN c.status = 'DELIVERED' THEN 1 ELSE 3 END,
           CASE WHEN c.status = 'DELIVERED' THEN decided_at + make_interval(secs => 2 + abs(hashtext(id)) % 50) END,
           decided_at
      FROM transfers
     CROSS JOIN LATERAL (SELECT CASE WHEN abs(hashtext(id)) % 60 = 0 THEN 'PENDING'
                                     WHEN abs(hashtext(id)) % 97 = 0 THEN 'FAILED' ELSE 'DELIVERED' END AS status) c
     WHERE id LIKE 'trf_ovdoc_%' AND decided_at IS NOT NULL`;
  await db().$executeRaw`
    INSERT INTO partner_answer_counts (partner_id, minute, answers, failures, client_errors)
    SELECT p, date_trunc('minute', now()) - make_interval(mins => m), 2, CASE WHEN i = 2 AND m % 3 = 0 THEN 1 ELSE 0 END, 0
      FROM unnest(${partnerIds}::text[]) WITH ORDINALITY AS x(p, i), generate_series(0, 59) AS m
    ON CONFLICT (partner_id, minute) DO NOTHING`;
  await rebuildOverviewRollups({ timeZone });
}
