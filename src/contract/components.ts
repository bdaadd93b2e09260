/**
 * The API's component schemas: one per `schemas/api/<Name>.schema.json`, named exactly as the contract names
 * them. The list is generated from that folder (`npm run generate:types`); the route table refers to the schemas
 * by name and the OpenAPI document lists them under `components.schemas`.
 */
import { API_SCHEMA_NAMES } from '../schemas/types.generated.js';

/** The component schema names, alphabetical. */
export const COMPONENT_SCHEMA_NAMES = API_SCHEMA_NAMES;

/** One of {@link COMPONENT_SCHEMA_NAMES}. */
export type ComponentSchemaName = (typeof COMPONENT_SCHEMA_NAMES)[number];

/** A JSON Schema (draft 2020-12) object, loosely typed: schemas are data, checked by ajv and the linters. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };
