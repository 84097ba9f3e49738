import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import {
  AddressSchema,
  AllergyDetailsSchema,
  ContactInfoSchema,
  DATE_TIME_PATTERN,
  ERROR_TYPES,
  HTTP_URL_PATTERN,
  InsuranceSchema,
  NameSchema,
  PatientSchema,
  PharmacySchema,
  PrescriberSchema,
  PrescriptionSchema,
  RequestMetadataSchema,
  ResponseMetadataSchema,
  TransferErrorSchema,
  TransferRequestSchema,
  TransferResponseSchema,
  ReceivedTransferResponseSchema,
  ConfirmedTransferResponseSchema,
  ErrorTransferResponseSchema,
} from "@/lib/interface";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  $ref?: string;
  const?: unknown;
  enum?: unknown[];
};
type MediaType = { schema?: Schema; examples?: Record<string, { value: unknown }> };
type Response = { description: string; content?: Record<string, MediaType>; headers?: Record<string, unknown> };
type Operation = {
  operationId?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
  security?: Record<string, string[]>[];
};
type Document = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, Record<string, unknown> & { flows?: { clientCredentials?: { tokenUrl: string } } }>;
  };
};

const doc = buildOpenApiDocument() as Document;
const schemas = doc.components.schemas;

function resolve(schema: Schema | undefined): Schema {
  if (!schema) throw new Error("no schema");
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  const target = schemas[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return target;
}

function requiredKeysOf(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key)
    .sort();
}

describe("buildOpenApiDocument", () => {
  it("is an OpenAPI 3.1 document at version 1.0.0", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.title).not.toBe("");
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(buildOpenApiDocument()).toEqual(doc);
  });

  it("explains the six error types", () => {
    for (const type of ERROR_TYPES) expect(doc.info.description).toContain(`\`${type}\``);
  });

  it("has the three operations", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(["/oauth/token", "/v1/transfer", "/v1/transfer/{referenceID}"]);
    expect(Object.keys(doc.paths["/v1/transfer"]!)).toEqual(["post"]);
    expect(Object.keys(doc.paths["/v1/transfer/{referenceID}"]!)).toEqual(["get"]);
    expect(Object.keys(doc.paths["/oauth/token"]!)).toEqual(["post"]);
  });

  it("resolves every $ref", () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const name = ref.slice(ref.lastIndexOf("/") + 1, -1);
      expect(schemas, ref).toHaveProperty(name);
    }
  });

  describe("POST /v1/transfer", () => {
    const op = doc.paths["/v1/transfer"]!.post!;

    it("takes a required TransferRequest", () => {
      expect(op.requestBody?.required).toBe(true);
      expect(op.requestBody?.content["application/json"]?.schema).toEqual({
        $ref: "#/components/schemas/TransferRequest",
      });
    });

    it("answers every status with a TransferResponse and says when", () => {
      expect(Object.keys(op.responses).sort()).toEqual([
        "200",
        "400",
        "401",
        "403",
        "405",
        "413",
        "415",
        "429",
        "500",
        "503",
      ]);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description.length, status).toBeGreaterThan(10);
        expect(resolve(response.content?.["application/json"]?.schema)).toBe(schemas.TransferResponse);
      }
      expect(op.responses["401"]?.headers).toHaveProperty("WWW-Authenticate");
      expect(op.responses["429"]?.headers).toHaveProperty("Retry-After");
      expect(op.responses["503"]?.headers).toHaveProperty("Retry-After");
    });

    it("has examples that the wire schemas accept, including RECEIVED and ERROR", () => {
      const requestExamples = Object.values(op.requestBody?.content["application/json"]?.examples ?? {});
      expect(requestExamples.length).toBeGreaterThan(0);
      for (const example of requestExamples) expect(TransferRequestSchema.safeParse(example.value).success).toBe(true);

      const responseTypes = new Set<string>();
      for (const response of Object.values(op.responses)) {
        for (const example of Object.values(response.content?.["application/json"]?.examples ?? {})) {
          const parsed = TransferResponseSchema.parse(example.value);
          responseTypes.add(parsed.metadata.responseType);
        }
      }
      expect([...responseTypes].sort()).toEqual(["CONFIRMED", "ERROR", "RECEIVED"]);
    });

    it("accepts any of the three security schemes", () => {
      expect(op.security).toEqual([{ senderKey: [] }, { bearer: [] }, { oauth2: [] }]);
    });
  });

  describe("GET /v1/transfer/{referenceID}", () => {
    const op = doc.paths["/v1/transfer/{referenceID}"]!.get!;

    it("takes the referenceID in the path", () => {
      expect(op.parameters).toEqual([expect.objectContaining({ in: "path", name: "referenceID", required: true })]);
    });

    it("answers every status it gives with a TransferResponse, Retry-After on 429 and 503", () => {
      expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "404", "429", "500", "503"]);
      for (const response of Object.values(op.responses)) {
        expect(resolve(response.content?.["application/json"]?.schema)).toBe(schemas.TransferResponse);
      }
      expect(op.responses["429"]?.headers).toHaveProperty("Retry-After");
      expect(op.responses["503"]?.headers).toHaveProperty("Retry-After");
    });
  });

  describe("POST /oauth/token", () => {
    const op = doc.paths["/oauth/token"]!.post!;

    it("takes a form-encoded client credentials grant, authenticated by HTTP Basic or by its form fields", () => {
      const form = resolve(op.requestBody?.content["application/x-www-form-urlencoded"]?.schema);
      expect(form.required).toEqual(["grant_type"]);
      expect(form.properties?.grant_type).toMatchObject({ const: "client_credentials" });
      expect(Object.keys(form.properties ?? {})).toEqual(expect.arrayContaining(["client_id", "client_secret"]));
      expect(Object.keys(op.requestBody?.content ?? {})).toEqual(["application/x-www-form-urlencoded"]);
      // client_secret_basic, or client_secret_post (the form fields: no header scheme).
      expect(op.security).toEqual([{ clientSecretBasic: [] }, {}]);
      expect(doc.components.securitySchemes.clientSecretBasic).toMatchObject({ type: "http", scheme: "basic" });
    });

    it("answers a bearer token, or an OAuth error", () => {
      const token = resolve(op.responses["200"]?.content?.["application/json"]?.schema);
      expect(token.required?.sort()).toEqual(["access_token", "expires_in", "token_type"]);
      expect(token.properties?.token_type).toMatchObject({ const: "Bearer" });
      expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "429", "500", "503"]);
      for (const status of ["400", "401", "429", "500", "503"]) {
        const error = resolve(op.responses[status]?.content?.["application/json"]?.schema);
        expect(error.required).toEqual(["error"]);
        expect(Object.keys(error.properties ?? {})).toEqual(["error", "error_description"]);
        expect(error.properties?.error?.enum).toEqual(
          expect.arrayContaining(["invalid_request", "invalid_client", "temporarily_unavailable", "server_error"]),
        );
      }
      expect(op.responses["429"]?.headers).toHaveProperty("Retry-After");
    });
  });

  it("has a license", () => {
    expect((doc.info as { license?: { name: string } }).license).toEqual({ name: "Proprietary" });
  });

  it("publishes TransferResponse as one of three variants, each tied to its responseType", () => {
    const union = schemas.TransferResponse as Schema & { oneOf?: Schema[] };
    expect(union.oneOf?.map((s) => s.$ref)).toEqual([
      "#/components/schemas/ReceivedTransferResponse",
      "#/components/schemas/ConfirmedTransferResponse",
      "#/components/schemas/ErrorTransferResponse",
    ]);
    const tie = (name: string) =>
      (schemas[name]?.properties?.metadata as { allOf?: Schema[] }).allOf?.map(
        (s) => s.$ref ?? s.properties?.responseType,
      );
    expect(tie("ReceivedTransferResponse")).toEqual([
      "#/components/schemas/ResponseMetadata",
      { type: "string", const: "RECEIVED" },
    ]);
    expect(tie("ConfirmedTransferResponse")).toEqual([
      "#/components/schemas/ResponseMetadata",
      { type: "string", const: "CONFIRMED" },
    ]);
    expect(tie("ErrorTransferResponse")).toEqual([
      "#/components/schemas/ResponseMetadata",
      { type: "string", const: "ERROR" },
    ]);
    expect(schemas.ReceivedTransferResponse?.required).toEqual(["requestID", "metadata"]);
    expect(schemas.ConfirmedTransferResponse?.required).toEqual(["requestID", "metadata", "prescription"]);
    expect(schemas.ErrorTransferResponse?.required).toEqual(["requestID", "metadata", "error"]);
  });

  it("declares the senderKey, bearer and OAuth client-credentials schemes", () => {
    const { senderKey, bearer, oauth2 } = doc.components.securitySchemes;
    expect(senderKey).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    expect(senderKey?.description).toContain("senderKey <API_KEY>");
    expect(bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(oauth2).toMatchObject({ type: "oauth2" });
    expect(oauth2?.flows?.clientCredentials?.tokenUrl).toBe("/oauth/token");
  });

  describe("component schemas are the wire schemas", () => {
    const cases: [string, z.ZodObject, boolean][] = [
      ["TransferRequest", TransferRequestSchema, false],
      ["RequestMetadata", RequestMetadataSchema, true],
      ["Patient", PatientSchema, false],
      ["Name", NameSchema, false],
      ["Address", AddressSchema, false],
      ["ContactInfo", ContactInfoSchema, false],
      ["AllergyDetails", AllergyDetailsSchema, false],
      ["Prescriber", PrescriberSchema, false],
      ["Pharmacy", PharmacySchema, false],
      ["Prescription", PrescriptionSchema, false],
      ["Insurance", InsuranceSchema, false],
      ["ReceivedTransferResponse", ReceivedTransferResponseSchema, false],
      ["ConfirmedTransferResponse", ConfirmedTransferResponseSchema, false],
      ["ErrorTransferResponse", ErrorTransferResponseSchema, false],
      ["ResponseMetadata", ResponseMetadataSchema, true],
      ["Error", TransferErrorSchema, false],
    ];

    it.each(cases)("%s has the zod schema's keys and required keys", (name, zodSchema, open) => {
      const schema = schemas[name];
      expect(schema?.type).toBe("object");
      expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(Object.keys(zodSchema.shape).sort());
      expect([...(schema?.required ?? [])].sort()).toEqual(requiredKeysOf(zodSchema));
      if (open) expect(schema?.additionalProperties).not.toBe(false);
      else expect(schema?.additionalProperties).toBe(false);
    });

    it("TransferRequest requires all eight top-level keys", () => {
      expect(schemas.TransferRequest?.required?.sort()).toEqual(
        [
          "metadata",
          "patient",
          "prescriber",
          "prescription",
          "sendingPharmacy",
          "receivingPharmacy",
          "primaryInsurance",
          "secondaryInsurance",
        ].sort(),
      );
    });

    it("carries the interface's bounds", () => {
      const name = schemas.Name!.properties!;
      expect(name.firstName).toMatchObject({ type: "string", minLength: 1, maxLength: 35 });
      const rx = schemas.Prescription!.properties!;
      expect(rx.dawCode).toMatchObject({ anyOf: [{ type: "integer", minimum: 0, maximum: 9 }, { type: "null" }] });
      expect(rx.writtenDate).toMatchObject({ type: "string", format: "date-time" });
      expect(rx.faxImageURL).toMatchObject({
        anyOf: [{ type: "string", pattern: HTTP_URL_PATTERN }, { type: "null" }],
      });
      expect(schemas.Patient!.properties!.dateOfBirth).toMatchObject({ type: "string", format: "date" });
      // The bounds validation enforces, not zod's ±2^53-1; dates by format, not a 300-character regex.
      expect(rx.daysSupply).toEqual(expect.objectContaining({ type: "integer", minimum: 1, maximum: 999 }));
      expect(rx.refillsAuthorized).toEqual(expect.objectContaining({ minimum: 1, maximum: 100 }));
      expect(rx.refillsRemaining).toEqual(expect.objectContaining({ minimum: 0, maximum: 99 }));
      expect(rx.quantityDispensed).toEqual(expect.objectContaining({ exclusiveMinimum: 0 }));
      expect(JSON.stringify(schemas)).not.toContain("9007199254740991");
      expect(schemas.Patient!.properties!.dateOfBirth).not.toHaveProperty("pattern");
      expect(rx.writtenDate).toMatchObject({ pattern: DATE_TIME_PATTERN });
      expect(String((rx.prescribedNDC as { description?: string }).description)).toMatch(
        /10-digit code is accepted and kept exactly as sent/,
      );
      expect(schemas.ContactInfo!.properties!.phoneNumber).toMatchObject({ pattern: "^\\d{10}$" });
      expect(schemas.Insurance!.properties!.personCode).toMatchObject({
        anyOf: [{ pattern: "^\\d{3}$" }, { type: "null" }],
      });
      expect(schemas.Error!.properties!.type).toMatchObject({ enum: [...ERROR_TYPES] });
    });
  });

  describe("callbacks as OpenAPI 3.1 webhooks", () => {
    it("types the callback: a POST of a TransferResponse with the three Standard Webhooks headers", () => {
      const webhooks = (
        buildOpenApiDocument() as {
          webhooks: Record<
            string,
            {
              post: {
                parameters: { in: string; name: string; required: boolean }[];
                requestBody: { content: Record<string, { schema: unknown }> };
                responses: Record<string, unknown>;
              };
            }
          >;
        }
      ).webhooks;
      const post = webhooks.transferOutcome!.post;
      expect(post.parameters.filter((p) => p.in === "header" && p.required).map((p) => p.name)).toEqual([
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
      ]);
      expect(post.requestBody.content["application/json"]!.schema).toEqual({
        $ref: "#/components/schemas/TransferResponse",
      });
      expect(Object.keys(post.responses)).toContain("2XX");
    });
  });
});
