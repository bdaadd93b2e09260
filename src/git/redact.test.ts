import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.js';

describe('redactUrl', () => {
  it.each([
    ['https://user:token@git.example.com/org/repo.git', 'https://user:***@git.example.com/org/repo.git'],
    ['https://ghp_secret@github.com/org/repo', 'https://***@github.com/org/repo'],
    ['redis://:pass@127.0.0.1:6379', 'redis://:***@127.0.0.1:6379'],
    ["fatal: unable to access 'https://u:p@h.example/r/': error", "fatal: unable to access 'https://u:***@h.example/r/': error"],
    ['git@github.com:org/repo.git', 'git@github.com:org/repo.git'],
    ['/srv/repos/content.git', '/srv/repos/content.git'],
    ['https://host.example/a@b', 'https://host.example/a@b'],
  ])('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
