/**
 * Log lines of one fixed shape, their JSON built by a compiled serializer: a child of a pino logger whose line
 * building (`pino.symbols.asJsonSym`, which pino opens to integrations "for performant integration where necessary")
 * runs a serializer compiled from the shape's JSON Schema (fast-json-stringify), for the access log's line per
 * request. pino's own building walks the object and escapes every key and string value in a loop of its own, on each
 * line.
 *
 * The line is the bytes pino writes for the same call: its level, time and bindings, then the fields as the
 * serializer writes them, the message and pino's line end. Both write a string as `JSON.stringify` does, except a
 * lone UTF-16 surrogate, which the serializer escapes (`\ud800`) and pino's short-string path writes raw (its UTF-8
 * encoding then turns it into U+FFFD); HTTP fields and paths reach the access log as Latin-1, which holds none.
 * Everything else is still pino's: the level check, the time, the stream, its hooks. Where the line could differ,
 * pino builds it: a logger with a mixin, a `formatters.log`, a nested key, redaction, or a serializer of a field or
 * of the message has no compiled child at all; a line with another message, or whose fields the serializer refuses
 * (a `NaN`), is pino's.
 */
import { pino, type Logger } from 'pino';

const {
  asJsonSym,
  chindingsSym,
  endSym,
  formattersSym,
  lsCacheSym,
  messageKeySym,
  mixinSym,
  nestedKeySym,
  serializersSym,
  stringifiersSym,
  wildcardFirstSym,
} = pino.symbols;

/** pino's line building: `(fields, message, level number, time field) => line`. */
type BuildLine = (this: PinoState, obj: object, msg: unknown, num: number, time: string) => string;

/** A logger's state under `pino.symbols`, as this module reads it (pino's types leave it undescribed). */
interface PinoState {
  [key: symbol]: unknown;
}

/** `logger[sym]`, typed as the caller knows pino keeps it. */
const state = <T>(logger: PinoState, sym: symbol): T => logger[sym] as T;

/** The lines of one message: the schema of their fields, and the serializer compiled from it. */
export interface CompiledShape<T extends object> {
  /** The message of these lines (the access log's `request`); lines with another message are pino's. */
  message: string;
  /** The schema of the fields (its `properties` are every field a line may have). */
  schema: { readonly properties: object };
  /** The fields as a JSON object (`{…}`); may throw on a value it cannot write. */
  serialize: (fields: T) => string;
}

/**
 * Whether pino writes the fields and the message of `logger`'s lines plainly (so a compiled serializer writes the
 * same bytes): no mixin, log formatter, nested key or redaction, and no serializer of a field or of the message.
 */
function writesPlainly(logger: PinoState, fields: readonly string[]): boolean {
  const serializers = state<Record<string, unknown>>(logger, serializersSym);
  const stringifiers = state<Record<string | symbol, unknown>>(logger, stringifiersSym);
  const messageKey = state<string>(logger, messageKeySym);
  return (
    !logger[mixinSym] &&
    !state<{ log?: unknown }>(logger, formattersSym).log &&
    !logger[nestedKeySym] &&
    !stringifiers[wildcardFirstSym] &&
    !serializers[messageKey] &&
    !stringifiers[messageKey] &&
    fields.every((key) => !serializers[key] && !stringifiers[key])
  );
}

/**
 * A child of `logger` (no bindings of its own) whose lines with the message `shape.message` are built by
 * `shape.serialize`. Log only objects of the shape's schema with that message: a property the schema lacks is not
 * written. Lines with any other message are pino's.
 * @returns a child whose lines pino builds as usual when `logger` does not write plainly (see the module comment).
 */
export function withCompiledLines<T extends object>(logger: Logger, shape: CompiledShape<T>): Logger {
  const child = logger.child({});
  const internals = child as unknown as PinoState;
  if (!writesPlainly(internals, Object.keys(shape.schema.properties))) return child;
  const pinoBuild = state<BuildLine>(internals, asJsonSym);
  // pino writes its message key as it is, and the message as JSON.stringify does.
  const messageField = `,"${state<string>(internals, messageKeySym)}":${JSON.stringify(shape.message)}`;
  const compiledBuild: BuildLine = function (obj, msg, num, time) {
    // A child of the child may have serializers of its own: pino builds its lines.
    if (this !== internals || msg !== shape.message) return pinoBuild.call(this, obj, msg, num, time);
    let json: string;
    try {
      json = shape.serialize(obj as T);
    } catch {
      return pinoBuild.call(this, obj, msg, num, time);
    }
    const fields = json.length > 2 ? `,${json.slice(1, -1)}` : '';
    const lineStart = state<Record<number, string>>(this, lsCacheSym)[num];
    return lineStart + time + state<string>(this, chindingsSym) + fields + messageField + state<string>(this, endSym);
  };
  internals[asJsonSym] = compiledBuild;
  return child;
}
