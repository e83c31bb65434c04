// Schemas across the Gemini boundary. Clients may describe tools and JSON answers with Gemini's
// OpenAPI-style Schema (`parameters`, `responseSchema`: upper-case types, `nullable`, int64 limits as
// strings); the IR holds plain JSON Schema. Upstream, the codec sends `parametersJsonSchema` and
// `responseJsonSchema`, which take JSON Schema as it is.
import type { Json } from './shared.js';
import { isRecord } from './shared.js';

/** Schema fields Google types as int64, which its JSON encodes as strings ("minItems": "1"). */
const INT64_FIELDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  return isRecord(value) ? jsonSchemaFromGemini(value) : value;
}

/** Gemini's OpenAPI-style Schema as JSON Schema. */
export function jsonSchemaFromGemini(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') {
      const type = value.toLowerCase();
      if (type !== 'type_unspecified') out.type = type;
    } else if (key === 'properties' && isRecord(value)) {
      const properties: Json = {};
      for (const [name, property] of Object.entries(value)) properties[name] = convert(property);
      out.properties = properties;
    } else if (key === 'items' || SCHEMA_LISTS.has(key)) {
      out[key] = convert(value);
    } else if (INT64_FIELDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
      out[key] = Number(value);
    } else if (key !== 'nullable' && key !== 'propertyOrdering') {
      out[key] = value;
    }
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/**
 * A tool's parameters for `parametersJsonSchema`, which must describe an object: an empty schema
 * becomes an object without properties, and a top-level `$schema` (which zod-to-json-schema adds) is
 * left out.
 */
export function geminiParameters(parameters: Json): Json {
  const { $schema: _schema, ...rest } = parameters;
  return Object.keys(rest).length === 0 ? { type: 'object', properties: {} } : rest;
}
