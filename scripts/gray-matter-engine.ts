/**
 * esbuild plugin: gray-matter's default YAML engine (js-yaml 3) is left out of the bundles. The content code never
 * calls it: `src/content/frontmatter.ts` hands gray-matter an engine of its own on every call, and parses the YAML
 * with `yaml`. Bundled, js-yaml was evaluated at every start anyway and required `esprima` (a JavaScript parser, for
 * its `!!js/function` tag) from node_modules when one was there: about 20–30 ms and 2 MiB of heap for nothing.
 * gray-matter gets a module whose functions throw instead, so a call that would have used the default engine fails
 * loudly rather than parsing YAML another way. The build fails when gray-matter no longer imports js-yaml (the
 * plugin would then guard nothing).
 */
import type { Plugin } from 'esbuild';
import { failUnlessReplaced } from './replacement-guard.js';

const NAMESPACE = 'gray-matter-default-engine';

/** The module gray-matter gets for `js-yaml`: the two functions its engines table binds, each throwing. */
const UNUSED_ENGINE = `const unused = () => {
  throw new Error("gray-matter's default YAML engine is not bundled: pass { engines: { yaml } } (src/content/frontmatter.ts)");
};
module.exports = { safeLoad: unused, safeDump: unused };
`;

/** See the module comment. */
export function grayMatterWithoutDefaultEngine(): Plugin {
  return {
    name: NAMESPACE,
    setup(build) {
      let replaced = false;
      build.onResolve({ filter: /^js-yaml$/ }, (args) => {
        if (!/[\\/]node_modules[\\/]gray-matter[\\/]/.test(args.importer)) return undefined;
        replaced = true;
        return { path: 'js-yaml', namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({ contents: UNUSED_ENGINE, loader: 'js' }));
      failUnlessReplaced(
        build,
        () => replaced,
        'gray-matter imports no js-yaml: its default engine is bundled some other way, or gray-matter is gone',
      );
    },
  };
}
