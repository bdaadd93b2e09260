/**
 * Credentials never leave the process in a URL: `https://user:token@host/x` is shown as `https://user:***@host/x`,
 * and `https://token@host/x` (a token given as the user name, as GitHub and GitLab accept) as `https://***@host/x`.
 */

const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*)(?::[^/@\s]*)?@/gi;

/**
 * `text` with the userinfo of every `scheme://user[:password]@` URL in it hidden (the whole text is scanned, so
 * it also cleans an error message that quotes a URL). SSH's `user@host:path` form carries no secret and is kept.
 */
export function redactUrl(text: string): string {
  return text.replace(USERINFO, (match, scheme: string, user: string) =>
    match.includes(':', scheme.length) ? `${scheme}${user}:***@` : `${scheme}***@`,
  );
}
