/**
 * Prints the README's configuration table, rendered from the variables' one statement (src/server/config-schema.ts):
 * `npx tsx scripts/config-table.ts`, then paste it over the table in README.md (test/readme-config.test.ts checks).
 */
import { configurationTable } from '../src/server/config-schema.js';

process.stdout.write(`${configurationTable()}\n`);
