// Renders one OpenAPI schema object as a table of its fields, following $refs to nested objects.
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  description?: string;
  additionalProperties?: unknown;
};

export type OpenApiSchemas = Record<string, Schema>;

function refName(ref: string): string {
  return ref.split("/").pop() ?? ref;
}

/** Splits `X | null` into X and a nullable flag, the way OpenAPI 3.1 writes nullable fields. */
function unwrapNullable(schema: Schema): { schema: Schema; nullable: boolean } {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const nonNull = variants.filter((v) => v.type !== "null");
    if (nonNull.length === 1 && nonNull.length < variants.length) return { schema: nonNull[0]!, nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const rest = schema.type.filter((t) => t !== "null");
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  return { schema, nullable: false };
}

/** `ResponseMetadata with responseType RECEIVED`: a referenced shape narrowed by constants (a TransferResponse variant). */
function allOfLabel(parts: Schema[]): string {
  return parts
    .map((part) => {
      const constants = Object.entries(part.properties ?? {}).filter(([, p]) => p.const !== undefined);
      return constants.length > 0
        ? constants.map(([key, p]) => `${key} ${String(p.const)}`).join(", ")
        : typeLabel(part);
    })
    .join(" with ");
}

export function typeLabel(schema: Schema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.allOf) return allOfLabel(schema.allOf);
  if (schema.type === "array" && schema.items) return `array of ${typeLabel(unwrapNullable(schema.items).schema)}`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeLabel).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return schema.format ? `${type} (${schema.format})` : type;
}

function rules(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.enum) out.push(`one of ${schema.enum.map((e) => String(e)).join(", ")}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    out.push(
      schema.minLength === schema.maxLength
        ? `exactly ${schema.minLength} characters`
        : `${schema.minLength ?? 0}–${schema.maxLength ?? "∞"} characters`,
    );
  }
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    out.push(`${schema.minimum ?? "−∞"}–${schema.maximum ?? "∞"}`);
  if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  return out;
}

export function SchemaFields({ name, schemas }: { name: string; schemas: OpenApiSchemas }) {
  const schema = schemas[name];
  if (!schema?.properties) return null;
  const required = new Set(schema.required ?? []);
  return (
    <section aria-labelledby={`schema-${name}`} className="mt-6">
      <h3 id={`schema-${name}`} className="scroll-mt-4 text-base font-semibold">
        {name}
      </h3>
      {schema.description && <p className="mt-1 text-slate-600">{schema.description}</p>}
      {schema.additionalProperties !== false && (
        <p className="mt-1 text-xs text-slate-500">Additional properties are allowed.</p>
      )}
      <div className="mt-2 overflow-x-auto">
        <table className="w-full border-collapse text-left">
          <thead>
            <tr className="border-b border-slate-300 text-xs uppercase tracking-wide text-slate-500">
              <th scope="col" className="py-1 pr-4">
                Field
              </th>
              <th scope="col" className="py-1 pr-4">
                Type
              </th>
              <th scope="col" className="py-1 pr-4">
                Required
              </th>
              <th scope="col" className="py-1 pr-4">
                Null
              </th>
              <th scope="col" className="py-1">
                Rules and meaning
              </th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(schema.properties).map(([field, raw]) => {
              const { schema: fieldSchema, nullable } = unwrapNullable(raw);
              const ref = fieldSchema.$ref ? refName(fieldSchema.$ref) : undefined;
              const description = raw.description ?? fieldSchema.description;
              return (
                <tr key={field} className="border-b border-slate-200 align-top">
                  <td className="py-1 pr-4 font-mono">{field}</td>
                  <td className="py-1 pr-4">
                    {ref ? (
                      <a className="text-blue-700 underline" href={`#schema-${ref}`}>
                        {ref}
                      </a>
                    ) : (
                      typeLabel(fieldSchema)
                    )}
                  </td>
                  <td className="py-1 pr-4">{required.has(field) ? "yes" : "no"}</td>
                  <td className="py-1 pr-4">{nullable ? "yes" : "no"}</td>
                  <td className="py-1">
                    {[...rules(fieldSchema), ...(fieldSchema.items ? rules(fieldSchema.items) : [])].join("; ")}
                    {description && <span className="block text-slate-600">{description}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
