// `prepare` (run by `npm ci` and `npm install` in this folder): builds dist/ when the build tools are installed.
// Under `npm ci --omit=dev` they are not: say so and succeed, so a production install never fails here.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('esbuild');
  require.resolve('tsx');
} catch {
  process.stdout.write('prepare: devDependencies not installed; skipping the build (run `npm run build` where they are)\n');
  process.exit(0);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
