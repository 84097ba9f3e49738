// The stack in use: the first admin and a sending partner made with the CLI inside the web container, then
// a transfer posted from the host with the partner's API key.
import { randomBytes } from "node:crypto";
import { exampleTransferRequest } from "@/lib/demo/example-request";
import { cli } from "./container-cli";
import { get } from "./probes";
import { check, say } from "./report";
import type { StackEnv } from "./stack-env";

/** The accepted transfer's id, or "" when none was accepted. */
export async function createAdminAndSendTransfer({ base, npi }: StackEnv): Promise<string> {
  say("first admin and a sending partner with the CLI inside the web container");
  const admin = await cli([
    "user",
    "create",
    "--email",
    "admin@pharmacy.example",
    "--password",
    `Adm1n-${randomBytes(9).toString("hex")}`,
    "--role",
    "admin",
  ]);
  check(
    "CLI: first admin created",
    admin.code === 0 && admin.json !== null && !("error" in admin.json),
    admin.out.split("\n").at(-1),
  );
  const partner = await cli([
    "partner",
    "create",
    "--name",
    "Container Test Sender",
    "--callback-url",
    "https://sender.example/rx-callbacks",
    "--npi",
    "1843501234",
  ]);
  const apiKey = typeof partner.json?.apiKey === "string" ? partner.json.apiKey : "";
  check(
    "CLI: partner with an API key created",
    partner.code === 0 && apiKey.startsWith("rxk_"),
    apiKey ? "" : partner.out,
  );

  const request = exampleTransferRequest(new Date());
  request.receivingPharmacy.npi = npi;
  request.receivingPharmacy.name = "Container Test Pharmacy";
  const posted = await fetch(`${base}/v1/transfer`, {
    method: "POST",
    headers: { authorization: `senderKey ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(request),
  }).catch((err: unknown) => err as Error);
  const postedBody =
    posted instanceof Response ? ((await posted.json().catch(() => null)) as Record<string, unknown> | null) : null;
  const transferId = JSON.stringify(postedBody ?? {}).match(/trf_[A-Za-z0-9_-]+/)?.[0] ?? "";
  check(
    "a transfer posted from the host with the API key is accepted",
    posted instanceof Response && posted.status >= 200 && posted.status < 300 && transferId !== "",
    posted instanceof Response
      ? `${posted.status} ${transferId || JSON.stringify(postedBody).slice(0, 200)}`
      : posted.message,
  );
  check("/readyz still 200 after the traffic", (await get(`${base}/readyz`)) === 200);
  return transferId;
}
