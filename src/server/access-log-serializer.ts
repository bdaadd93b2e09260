/**
 * The access-log line's fields as JSON text, by a serializer fast-json-stringify compiles from
 * {@link ACCESS_LOG_SCHEMA}: what runs from source (tsx, vitest).
 *
 * The production bundle never runs this compilation (nor loads fast-json-stringify's compiler and ajv, about 40 ms
 * at start). `npm run build` replaces this module, and only this one, by the standalone code that
 * scripts/standalone-serializer.ts has fast-json-stringify generate at build time from the same schema: a module
 * exporting the same {@link accessLogSerializer}, whose serializer is precompiled.
 */
import fastJson from 'fast-json-stringify';
import { ACCESS_LOG_SCHEMA, type AccessLogFields } from '../http/access-log.js';

/** Serializes the fields of one access-log line: a JSON object, the fields in schema order, `undefined` ones left out. */
export type AccessLogSerializer = (fields: AccessLogFields) => string;

/**
 * The serializer of {@link ACCESS_LOG_SCHEMA}, compiled now. It throws on a number field that is `NaN`
 * (fast-json-stringify refuses it; pino would write `null`).
 */
export function accessLogSerializer(): AccessLogSerializer {
  return fastJson(ACCESS_LOG_SCHEMA);
}
