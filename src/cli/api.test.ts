import { describe, expect, it } from 'vitest';
import { statusProblem } from './api.js';

const root = new URL('http://localhost:18080/');
const prefixed = new URL('https://example.org/syllabus/');

describe('a non-200 answer, in words', () => {
  it('a 404 is never "try again later": it points at the base URL, the host root when the base URL has a path', () => {
    expect(statusProblem(root, 404, 'http://localhost:18080/v1/catalog')).toBe(
      'http://localhost:18080/v1/catalog answered 404: http://localhost:18080/ does not serve the Syllabus API; check --base-url.',
    );
    expect(statusProblem(prefixed, 404, 'https://example.org/syllabus/v1/catalog')).toBe(
      "https://example.org/syllabus/v1/catalog answered 404: there is no Syllabus API under https://example.org/syllabus/. --base-url is the service's root URL (the client adds /v1/… itself); if the service is at its host's root, use https://example.org/",
    );
  });

  it('only a 5xx or 408 may pass with time', () => {
    expect(statusProblem(root, 503, 'u')).toBe('u answered 503; try again later, or check --base-url.');
    expect(statusProblem(root, 408, 'u')).toBe('u answered 408; try again later, or check --base-url.');
    expect(statusProblem(root, 403, 'u')).toBe("u answered 403; check --base-url (the service's root URL).");
    expect(statusProblem(root, 410, 'u')).not.toContain('try again');
  });
});
