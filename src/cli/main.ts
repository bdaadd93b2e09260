#!/usr/bin/env node
/** Entry point of the `syllabus` client (bin/syllabus.js and the release bundle both run this module). */
import { run } from './program.js';

process.exitCode = await run(process.argv, { stdout: process.stdout, stderr: process.stderr, env: process.env });
