// Prints the example transfer request (lib/demo/example-request.ts) as of a day, default today:
//   npx tsx scripts/example-transfer.ts [YYYY-MM-DD] > examples/transfer.json
import { exampleTransferRequest } from "@/lib/demo/example-request";

const day = process.argv[2];
const asOf = day ? new Date(`${day}T15:00:00Z`) : new Date();
if (Number.isNaN(asOf.getTime())) throw new Error(`not a date: ${day}`);
process.stdout.write(`${JSON.stringify(exampleTransferRequest(asOf), null, 2)}\n`);
