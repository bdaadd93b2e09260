/**
 * The layers of docs/architecture.md, enforced (`npm run lint:deps`, part of `npm test`):
 *
 *   schemas → contract → content → index → http | pages → server → preview → content-cli
 *                  git ↗       ↘ source ↗                     (signatures, referrals: used by server)
 *
 * git, net and text are leaves (they import nothing of ours). The preview (development only) wraps the server; the
 * writers' CLI (`syllabus-content`) sits on top and loads the preview only when `dev` runs.
 *
 * No import goes back up, other layers see src/content only through its index.ts, and contract, index, http and
 * pages import nothing from Node and see the content as types only: hashing, compression and files are injected by
 * src/server, so the HatTip handler runs on any Fetch runtime. Tests may reach across layers to build what they
 * check (e.g. a page test uses the server's index builder); they are exempt from the layer rules.
 */
const TEST = '\\.test\\.ts$';
/**
 * A layer rule: modules under `from` (tests aside) import nothing under `forbiddenTo`.
 * @param {string} name @param {string} from @param {string} forbiddenTo @param {string} comment
 */
const layer = (name, from, forbiddenTo, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: TEST },
  to: { path: forbiddenTo },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles make the layering meaningless.', from: {}, to: { circular: true } },
    {
      name: 'runtime-neutral',
      severity: 'error',
      comment: 'contract, index, http and pages run on any Fetch runtime: Node is injected by src/server.',
      from: { path: '^src/(contract|index|http|pages)/', pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'runtime-neutral-content',
      severity: 'error',
      comment: 'contract, index, http and pages see the content as types only: its library runs on Node.',
      from: { path: '^src/(contract|index|http|pages)/', pathNot: TEST },
      to: { path: '^src/content/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'content-through-its-index',
      severity: 'error',
      comment: 'The content library is what src/content/index.ts exports; no other layer reaches past it.',
      from: { path: '^src/(?!content/)', pathNot: TEST },
      to: { path: '^src/content/(?!index\\.ts$)' },
    },
    layer('contract-is-the-base', '^src/contract/', '^src/(?!contract/|schemas/)', 'The contract is data: it imports only the schemas.'),
    layer(
      'content-below-index',
      '^src/content/',
      '^src/(index|http|pages|server|source|referrals|signatures|cli|preview)/',
      'Content knows nothing of serving.',
    ),
    layer(
      'index-below-http',
      '^src/index/',
      '^src/(http|pages|server|source|referrals|signatures|cli)/',
      'The index knows nothing of requests or pages.',
    ),
    layer('http-beside-pages', '^src/http/', '^src/(pages|server|source|referrals|cli)/', 'The handler gets pages and Node parts injected.'),
    layer(
      'pages-beside-http',
      '^src/pages/',
      '^src/(http|server|source|referrals|signatures|cli)/',
      'Pages render the model; they never see a request.',
    ),
    layer('source-below-server', '^src/source/', '^src/(index|http|pages|server|referrals|signatures|cli)/', 'A source delivers content trees.'),
    layer('signatures-standalone', '^src/signatures/', '^src/(?!signatures/|net/)', 'RFC 9421 verification stands alone (with the address bucket).'),
    layer('net-is-a-leaf', '^src/net/', '^src/(?!net/)', 'Address arithmetic depends on nothing of ours.'),
    layer('text-is-a-leaf', '^src/text/', '^src/(?!text/)', 'Word suggestions ("did you mean") depend on nothing of ours.'),
    layer('git-is-a-leaf', '^src/git/', '^src/(?!git/)', 'Running git (one environment, credentials redacted) depends on nothing of ours.'),
    layer(
      'cli-over-http-only',
      '^src/cli/',
      '^src/(content|index|http|pages|server|source|referrals|signatures)/',
      'The CLI talks to the service over HTTP only.',
    ),
    layer('server-on-top', '^src/(?!server/|preview/)', '^src/server/', 'Only src/server wires things together (and the preview wraps it).'),
    layer(
      'preview-is-dev-only',
      '^src/(?!preview/|content-cli/)',
      '^src/preview/',
      'The live preview wraps the production server; nothing in production imports it.',
    ),
    layer('content-cli-on-top', '^src/(?!content-cli/)', '^src/content-cli/', "The writers' CLI is the top layer: nothing imports it."),
    {
      name: 'preview-loaded-on-demand',
      severity: 'error',
      comment: "The writers' CLI declares `dev` with the light options module and imports the preview only when it runs.",
      from: { path: '^src/content-cli/' },
      to: { path: '^src/preview/', pathNot: '^src/preview/options\\.ts$', dynamic: false },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|coverage|bench/out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
