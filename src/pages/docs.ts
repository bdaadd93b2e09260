/**
 * `/docs`: the interactive API reference (Swagger UI from the `swagger-ui-dist` package, served from this
 * origin). Pure: the page, its start-up script and its Content-Security-Policy as strings; the bundle files
 * are read by `src/server/docs-assets.ts`.
 *
 * Nothing on the page reaches another host: the document comes from `/openapi.json`, the spec validator
 * badge is off (`validatorUrl: null`), Swagger UI's own CSS uses system fonts, and "Try it out" calls the
 * document's `servers` URL, which is this origin unless `PUBLIC_BASE_URL` names another.
 */

import { routeNamed, routePath } from '../contract/routes.js';

/** Path of the reference page. */
export const DOCS_PATH: string = routeNamed('docs').path;

/** Path prefix of the page's assets. */
export const DOCS_ASSETS_PREFIX: string = routePath(routeNamed('docsAsset'), '');

/** Path of the OpenAPI document the page loads. */
export const OPENAPI_PATH: string = routeNamed('openApiDocument').path;

/** The `swagger-ui-dist` files the page loads, served under {@link DOCS_ASSETS_PREFIX}, with their types. */
export const SWAGGER_UI_FILES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
} as const satisfies Record<string, string>;

/** Name of the start-up script (ours, not from the package), served under {@link DOCS_ASSETS_PREFIX}. */
export const DOCS_INIT_SCRIPT_NAME = 'init.js';

/** A file the page loads, by its own name (served under a content-hashed one, `contentHashedName`). */
export type DocsAssetFile = keyof typeof SWAGGER_UI_FILES | typeof DOCS_INIT_SCRIPT_NAME;

/**
 * Starts Swagger UI. A file of its own rather than an inline `<script>`, so that the page works under
 * `script-src 'self'`. `queryConfigEnabled: false` stops `?url=` from loading another host's document.
 */
export const DOCS_INIT_SCRIPT = `// Starts Swagger UI on /docs (Syllabus catalog API).
'use strict';
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    withCredentials: false,
    displayOperationId: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 1,
    supportedSubmitMethods: ['get', 'head'],
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

/**
 * The reference page. Every URL in it is same-origin and absolute-path.
 * @param asset the path a file of the page is served at (`/docs/assets/swagger-ui.<hash>.css`).
 */
export function docsHtml(asset: (file: DocsAssetFile) => string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Syllabus catalog API reference</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<noscript><p>The interactive reference needs JavaScript. The OpenAPI document is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p></noscript>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}" charset="utf-8"></script>
<script src="${asset(DOCS_INIT_SCRIPT_NAME)}" charset="utf-8"></script>
</body>
</html>
`;
}

/**
 * Content-Security-Policy of the page: scripts, styles, images and fetches from this origin only (plus the
 * origin of `publicBaseUrl`, where "Try it out" sends requests when it names another host). Styles allow
 * `'unsafe-inline'` because Swagger UI sets `style` attributes; no script is inline.
 * @param publicBaseUrl the absolute URL the API is published at, if configured.
 * @throws TypeError when `publicBaseUrl` is not an absolute URL.
 */
export function docsContentSecurityPolicy(publicBaseUrl?: string): string {
  const connect = ["'self'"];
  if (publicBaseUrl) connect.push(new URL(publicBaseUrl).origin);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
