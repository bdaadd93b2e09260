/**
 * Prints the configuration table of docs/operations.md, rendered from the variables' one statement (src/server/config-schema.ts):
 * `npx tsx scripts/config-table.ts`, then paste it over the table in docs/operations.md (test/config-docs.test.ts checks).
 */
import { configurationTable } from '../src/server/config-schema.js';

process.stdout.write(`${configurationTable()}\n`);
