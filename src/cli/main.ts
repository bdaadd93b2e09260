#!/usr/bin/env node
/** Entry point of the `syllabus` client (bin/syllabus.js and the release bundle both run this module). */
import { guardOutput } from './pipe.js';
import { run } from './program.js';

// A closed stderr (`2>&1 | head`) only silences the messages; the command's status stands.
const stderr = guardOutput(process.stderr, () => undefined);
const stdout = guardOutput(process.stdout, (error, status) => {
  if (status !== 0) stderr.write(`syllabus: could not write the output (${error.code ?? error.message}).\n`);
  process.exitCode = status;
});
const code = await run(process.argv, { stdout, stderr, env: process.env });
process.exitCode = stdout.status ?? code;
