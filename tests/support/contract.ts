// Holds the service to its published contract: every answer the integration and fuzz tests receive from an
// operation of /v1/openapi.json is checked against the document, built from the same code the server serves
// it from. The status must be one the operation lists (a status the document does not list fails the test),
// the headers it marks required must be there, and the body must match the schema of that status and media
// type (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it). Paths and methods the document does not describe
// (Next's redirects, other routes) are not checked here.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "@/lib/openapi/document";

type MediaType = { schema?: unknown };
type ResponseObject = { content?: Record<string, MediaType>; headers?: Record<string, { required?: boolean }> };
type Operation = { responses: Record<string, ResponseObject> };
type Document = { paths: Record<string, Record<string, Operation>> };

const DOCUMENT_ID = "https://rx-transfer.example/openapi.json";
const document = buildOpenApiDocument() as Document;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

/** `/v1/transfer/{referenceID}` → a pattern of one non-empty segment per parameter. */
const templates = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const validators = new Map<string, ValidateFunction>();

function validatorFor(...segments: string[]): ValidateFunction {
  const ref = `${DOCUMENT_ID}#/${pointer(...segments)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`the document has no schema at ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

export type ObservedAnswer = {
  method: string;
  /** Path and query as sent. */
  path: string;
  status: number;
  headers: { get(name: string): string | null | undefined };
  text: string;
};

/** The operation's response entry for the status: exact, then 2XX-style ranges, then default. */
function responseKeyFor(operation: Operation, status: number): string | null {
  const exact = String(status);
  if (operation.responses[exact]) return exact;
  const range = `${exact[0]}XX`;
  if (operation.responses[range]) return range;
  return operation.responses.default ? "default" : null;
}

/**
 * Throws when the answer breaks the document: a status its operation does not list, a missing required
 * header, a content type it does not list, or a body its schema refuses. Returns whether the answer was of
 * a documented operation (and so checked).
 */
export function expectAnswerInDocument(answer: ObservedAnswer): boolean {
  let pathname: string;
  try {
    pathname = new URL(answer.path, "http://contract.invalid").pathname;
  } catch {
    return false;
  }
  if (pathname !== answer.path.split("?")[0]) return false; // normalised on the way (dot segments, …)
  const found = templates.find((t) => t.pattern.test(pathname));
  const method = answer.method.toLowerCase();
  const operation = found && document.paths[found.template]?.[method];
  if (!found || !operation) return false;
  const where = `${answer.method} ${found.template} answered ${answer.status}`;
  const key = responseKeyFor(operation, answer.status);
  if (!key) throw new Error(`${where}, a status the document does not list: ${answer.text.slice(0, 300)}`);
  const response = operation.responses[key]!;
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required && !answer.headers.get(name)) throw new Error(`${where} without the ${name} header`);
  }
  if (!response.content) return true;
  const contentType = answer.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const media = response.content[contentType];
  if (!media) {
    throw new Error(
      `${where} with Content-Type ${contentType || "(none)"}; the document lists ${Object.keys(response.content).join(", ")}`,
    );
  }
  if (!media.schema) return true;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`${where} with a body that is not JSON: ${answer.text.slice(0, 300)}`);
  }
  const validate = validatorFor("paths", found.template, method, "responses", key, "content", contentType, "schema");
  if (!validate(body)) {
    throw new Error(
      `${where} with a body the document refuses: ${ajv.errorsText(validate.errors)}\n${answer.text.slice(0, 500)}`,
    );
  }
  return true;
}
