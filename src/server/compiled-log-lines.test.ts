import { pino, type Logger, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_MESSAGE, ACCESS_LOG_SCHEMA, accessLog, accessLogFields, type AccessLogFields } from '../http/access-log.js';
import { hostileRecords, SAMPLE_RECORD } from '../../test/helpers/access-log-records.js';
import { accessLogSerializer } from './access-log-serializer.js';
import { withCompiledLines } from './compiled-log-lines.js';
import { loggerOptions } from './logger.js';

/** A destination keeping every line pino writes to it (pino writes a line by `write(string)`). */
function capture(): { stream: { write: (line: string) => void }; lines: string[] } {
  const lines: string[] = [];
  return { stream: { write: (line) => lines.push(line) }, lines };
}

/** The service's logger options with a fixed time, so that two loggers write the same line. */
const OPTIONS: LoggerOptions = { ...loggerOptions('info'), timestamp: () => ',"time":"2026-11-27T21:00:00.000Z"' };

/** A pino logger on a capture, and a compiled child of another, counting its serializer's calls. */
function pair(options: LoggerOptions = OPTIONS): {
  pinoLines: string[];
  compiledLines: string[];
  plain: Logger;
  compiled: Logger;
  serialized: () => number;
} {
  const a = capture();
  const b = capture();
  const serialize = accessLogSerializer();
  let calls = 0;
  const compiled = withCompiledLines(pino(options, b.stream), {
    message: ACCESS_LOG_MESSAGE,
    schema: ACCESS_LOG_SCHEMA,
    serialize: (fields: AccessLogFields) => {
      calls++;
      return serialize(fields);
    },
  });
  return { pinoLines: a.lines, compiledLines: b.lines, plain: pino(options, a.stream), compiled, serialized: () => calls };
}

describe('access-log lines built by the compiled serializer', () => {
  it('are the bytes pino writes, for hostile strings in every field and numbers of every kind', () => {
    const records = hostileRecords(400, 20261127);
    const { plain, compiled, pinoLines, compiledLines, serialized } = pair();
    for (const record of records) {
      plain.info(accessLogFields(record), ACCESS_LOG_MESSAGE);
      compiled.info(accessLogFields(record), ACCESS_LOG_MESSAGE);
    }
    expect(serialized()).toBe(records.length);
    expect(compiledLines).toHaveLength(records.length);
    for (const [i, line] of compiledLines.entries()) expect(line).toBe(pinoLines[i]);
    for (const line of compiledLines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('are the bytes pino writes for text beyond Latin-1 (accents, CJK, astral characters)', () => {
    const { plain, compiled, pinoLines, compiledLines } = pair();
    for (const userAgent of ['Mozilla/5.0 (Ünïcode)', '日本語のエージェント', 'emoji 😀 agent', 'x'.repeat(4999) + '"', 'y'.repeat(5001)]) {
      plain.info(accessLogFields({ ...SAMPLE_RECORD, userAgent }), ACCESS_LOG_MESSAGE);
      compiled.info(accessLogFields({ ...SAMPLE_RECORD, userAgent }), ACCESS_LOG_MESSAGE);
    }
    expect(compiledLines).toEqual(pinoLines);
  });

  it("write the service's line: level, time, service, the fields in order, the message", () => {
    const { compiled, compiledLines } = pair();
    accessLog(compiled)(SAMPLE_RECORD);
    expect(compiledLines).toEqual([
      '{"level":30,"time":"2026-11-27T21:00:00.000Z","service":"syllabus-catalog","method":"GET","path":"/v1/catalog",' +
        '"route":"/v1/catalog","status":200,"bytes":20915,"duration_ms":0.073,"client_address":"203.0.113.7",' +
        '"user_agent":"bench-agent/1.0 (+https://bench.example)","client_kind":"declared",' +
        '"request_id":"b3f1c2d4-1111-2222-3333-444455556666","revision":"65d3165e98044efbdcda8010b4ff2a06df73dcf1","msg":"request"}\n',
    ]);
  });

  it("are pino's own where the serializer refuses a value (NaN) or the message is another", () => {
    const { plain, compiled, pinoLines, compiledLines } = pair();
    const fields = accessLogFields({ ...SAMPLE_RECORD, durationMs: Number.NaN });
    plain.info(fields, ACCESS_LOG_MESSAGE);
    compiled.info(fields, ACCESS_LOG_MESSAGE);
    plain.info(accessLogFields(SAMPLE_RECORD));
    compiled.info(accessLogFields(SAMPLE_RECORD));
    plain.info({ err: new Error('boom') }, 'not an access line');
    compiled.info({ err: new Error('boom') }, 'not an access line');
    expect(compiledLines.map((line) => line.replace(/"stack":"[^"]*"/, ''))).toEqual(pinoLines.map((line) => line.replace(/"stack":"[^"]*"/, '')));
    expect(compiledLines[0]).toContain('"duration_ms":null');
  });

  it('are left to pino when it would not write the fields plainly: a mixin, a field serializer, redaction, a nested key', () => {
    const variants: LoggerOptions[] = [
      { ...OPTIONS, mixin: () => ({ instance: 'a' }) },
      { ...OPTIONS, serializers: { ...OPTIONS.serializers, path: (p: string) => p.toUpperCase() } },
      { ...OPTIONS, redact: ['user_agent'] },
      { ...OPTIONS, nestedKey: 'http' },
      { ...OPTIONS, formatters: { log: (o: object) => ({ ...o, extra: true }) } },
    ];
    for (const options of variants) {
      const { plain, compiled, pinoLines, compiledLines, serialized } = pair(options);
      plain.info(accessLogFields(SAMPLE_RECORD), ACCESS_LOG_MESSAGE);
      compiled.info(accessLogFields(SAMPLE_RECORD), ACCESS_LOG_MESSAGE);
      expect(serialized()).toBe(0);
      expect(compiledLines).toEqual(pinoLines);
    }
  });

  it("leave other lines and the parent's lines to pino, and follow the logger's level", () => {
    const { stream, lines } = capture();
    const parent = pino({ ...OPTIONS, level: 'warn' }, stream);
    const compiled = withCompiledLines(parent, { message: ACCESS_LOG_MESSAGE, schema: ACCESS_LOG_SCHEMA, serialize: accessLogSerializer() });
    compiled.info(accessLogFields(SAMPLE_RECORD), ACCESS_LOG_MESSAGE);
    expect(lines).toEqual([]);
    compiled.warn({ err: new Error('boom') }, 'not an access line');
    compiled.child({ shard: 2 }).warn(accessLogFields(SAMPLE_RECORD), ACCESS_LOG_MESSAGE);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, err: { message: 'boom', type: 'Error' }, msg: 'not an access line' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 40, shard: 2, path: '/v1/catalog', msg: 'request' });
  });
});
