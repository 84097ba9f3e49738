// The published TransferResponse and the answers and callbacks the code builds agree: every builder's output
// is valid for the document's schema (ajv, JSON Schema 2020-12), for the immediate answers and for the
// callbacks alike, and the document refuses what the interface rules out: a CONFIRMED without its
// prescription, an ERROR without its error, a RECEIVED that carries either.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { testCallbackBody } from "@/lib/callbacks/send-test-callback";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { confirmedResponse, rejectionResponse } from "@/lib/transfers/decision";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { errorResponse, receivedResponse, TransferResponseSchema } from "@/lib/interface";

const ID = "https://rx-transfer.example/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...buildOpenApiDocument(), $id: ID });
const published = ajv.getSchema(`${ID}#/components/schemas/TransferResponse`)!;
const callbackBody = ajv.getSchema(
  `${ID}#/webhooks/transferOutcome/post/requestBody/content/application~1json/schema`,
)!;

const NOW = new Date("2025-06-02T14:05:00Z");
const request = buildTransferRequest({}, { now: NOW });
const confirmed = confirmedResponse(request, "trf_1", NOW, "R-1001");
const rejected = rejectionResponse(request, "trf_1", NOW, "INVALID_INFO", "prescription.refillsRemaining is 0");
const received = receivedResponse(request.metadata.requestID, "trf_1", NOW);

describe("the published TransferResponse and the responses we build agree", () => {
  it.each([
    ["RECEIVED", received],
    ["CONFIRMED", confirmed],
    ["ERROR (rejection)", rejected],
    ["ERROR (refused request)", errorResponse("", "SPEC_MISMATCH", "request body is not valid JSON")],
    ["the test callback", testCallbackBody(NOW)],
  ])("%s is valid for the document, as an answer and as a callback", (_, body) => {
    expect(published(body), ajv.errorsText(published.errors)).toBe(true);
    expect(callbackBody(body), ajv.errorsText(callbackBody.errors)).toBe(true);
  });

  it.each([
    ["CONFIRMED without its prescription", { ...confirmed, prescription: undefined }],
    ["ERROR without its error", { ...rejected, error: undefined }],
    ["RECEIVED with an error", { ...received, error: rejected.error }],
    ["RECEIVED with a prescription", { ...received, prescription: request.prescription }],
    ["ERROR with a prescription", { ...rejected, prescription: request.prescription }],
    ["an unknown responseType", { ...received, metadata: { ...received.metadata, responseType: "DONE" } }],
  ])("the document and our schema both refuse %s", (_, value) => {
    const body = JSON.parse(JSON.stringify(value)) as unknown;
    expect(published(body)).toBe(false);
    expect(TransferResponseSchema.safeParse(body).success).toBe(false);
  });
});
