#!/bin/sh
# Installs the syllabus command-line client from a release folder published by `npm run release`.
#
#   curl -fsSL https://example.org/releases/install.sh | sh -s -- https://example.org/releases/
#   sh install.sh RELEASE_URL        (or set SYLLABUS_RELEASE_URL)
#
# Reads latest.json and verifies its Ed25519 signature (latest.json.sig) with the pinned release key below
# (openssl), downloads the archive from the same origin, verifies its SHA-256 BEFORE unpacking, checks that the new
# version runs, and only then makes it current in ${SYLLABUS_INSTALL_DIR:-$HOME/.local/share/syllabus} and links
# `syllabus` into ${SYLLABUS_BIN_DIR:-$HOME/.local/bin}. Releases are fetched over https only, never following a
# redirect; nothing is written through a symbolic link, and the version replaced is kept as `previous`.
# Needs: POSIX sh, curl or wget, openssl, sha256sum or shasum, gzip, tar, Node.js.
# Tests only: SYLLABUS_ALLOW_TEST_RELEASES=1 allows http to a loopback host and SYLLABUS_RELEASE_TEST_KEY (a PEM file)
# to replace the pinned key.
set -eu

say() { printf 'syllabus install: %s\n' "$*"; }
die() { printf 'syllabus install: %s\n' "$*" >&2; exit 1; }

# The Syllabus release key (Ed25519, the same as RELEASE_PUBLIC_KEY in src/cli/release/signature.ts).
release_key='-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAcJCxlPThF6OzfKcRlRD7ocNkWjKmupHNOuAeXpUOvJI=
-----END PUBLIC KEY-----'

test_releases=${SYLLABUS_ALLOW_TEST_RELEASES:-}
base=${1:-${SYLLABUS_RELEASE_URL:-}}
[ -n "$base" ] || die "no release URL: pass it as the first argument or set SYLLABUS_RELEASE_URL (e.g. https://example.org/releases/)."
# Whether $1 (an http:// URL) names a loopback host: localhost, 127.x.y.z or [::1], with an optional numeric port.
loopback_http() {
  hostport=${1#http://}
  hostport=${hostport%%/*}
  case $hostport in
    \[::1\]) host='[::1]' port='' ;;
    \[::1\]:*) host='[::1]' port=${hostport#\[::1\]:} ;;
    *:*) host=${hostport%%:*} port=${hostport#*:} ;;
    *) host=$hostport port='' ;;
  esac
  case $port in *[!0-9]*) return 1 ;; esac
  case $host in
    localhost|'[::1]') return 0 ;;
    127.*.*.*) case $host in *[!0-9.]*|*.*.*.*.*) return 1 ;; *) return 0 ;; esac ;;
  esac
  return 1
}
case $base in
  https://*) ;;
  http://*) { [ "$test_releases" = 1 ] && loopback_http "$base"; } || die "releases are only fetched over https, not from $base" ;;
  *) die "releases are only fetched over https, not from $base" ;;
esac
case $base in */) ;; *) base="$base/" ;; esac

[ -n "${HOME:-}" ] || die "HOME is not set; set it (or SYLLABUS_INSTALL_DIR and SYLLABUS_BIN_DIR) and run again."
install_dir=${SYLLABUS_INSTALL_DIR:-$HOME/.local/share/syllabus}
bin_dir=${SYLLABUS_BIN_DIR:-$HOME/.local/bin}

agent="syllabus-install/1.0 (+install.sh)"
if command -v curl >/dev/null 2>&1; then
  # No redirects: every file comes from the release URL's own origin (curl without -L exits 0 on a 3xx, so the status
  # is checked here).
  fetch() {
    status=$(curl -sS --proto '=http,https' -A "$agent" -o "$2" -w '%{http_code}' "$1") \
      || die "could not download $1 with curl; check the release URL and your connection, then run again."
    case $status in
      200) ;;
      3??) die "$1 redirects elsewhere (HTTP $status); release files are only fetched from the release URL's own origin, without redirects. Nothing was installed." ;;
      *) die "could not download $1 with curl (HTTP $status); check the release URL and your connection, then run again." ;;
    esac
  }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q --max-redirect=0 -U "$agent" -O "$2" "$1" || die "could not download $1 with wget (an error, or a redirect, which is never followed); check the release URL and your connection, then run again."; }
else
  die "needs curl or wget to download the release; install one of them and run again."
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "needs sha256sum or shasum to verify the download; install one of them (coreutils or perl) and run again."
fi

command -v openssl >/dev/null 2>&1 || die "needs openssl to verify the release signature; install it (the openssl package) and run again."
command -v node >/dev/null 2>&1 || die "syllabus runs on Node.js 20.19+, 22.12+ or 24+, and node is not on PATH; install Node.js and run again."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/syllabus-install.XXXXXX")
staging=""
cleanup() {
  rm -rf "$tmp"
  if [ -n "$staging" ]; then rm -rf "$staging"; fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

say "reading ${base}latest.json"
fetch "${base}latest.json" "$tmp/latest.json"
fetch "${base}latest.json.sig" "$tmp/latest.json.sig.b64"
printf '%s\n' "$release_key" > "$tmp/release-key.pem"
if [ "$test_releases" = 1 ] && [ -n "${SYLLABUS_RELEASE_TEST_KEY:-}" ]; then cp "$SYLLABUS_RELEASE_TEST_KEY" "$tmp/release-key.pem"; fi
openssl base64 -d -A -in "$tmp/latest.json.sig.b64" -out "$tmp/latest.json.sig" 2>/dev/null \
  || die "the release signature ${base}latest.json.sig is not base64; nothing was installed."
openssl pkeyutl -verify -pubin -inkey "$tmp/release-key.pem" -rawin -in "$tmp/latest.json" -sigfile "$tmp/latest.json.sig" >/dev/null 2>&1 \
  || die "${base}latest.json is not signed by the Syllabus release key; it may have been tampered with. Nothing was installed."
say "verified the release signature"
field() { sed -n "s/^[[:space:]]*\"$1\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$tmp/latest.json" | head -n 1; }
version=$(field version)
case $version in
  ''|*[!0-9A-Za-z.+-]*) die "${base}latest.json names no valid version; the release folder may be incomplete." ;;
esac
manifest_sha=$(field sha256)
[ -n "$manifest_sha" ] || die "${base}latest.json names no SHA-256; nothing was installed."
archive="syllabus-$version.tar.gz"

say "downloading $archive and SHA256SUMS"
fetch "$base$archive" "$tmp/$archive"
fetch "${base}SHA256SUMS" "$tmp/SHA256SUMS"

expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
[ -n "$expected" ] || die "SHA256SUMS at $base has no checksum for $archive; nothing was installed."
actual=$(sha256 "$tmp/$archive")
if [ "$actual" != "$expected" ] || [ "$manifest_sha" != "$actual" ]; then
  die "checksum mismatch for $archive: SHA256SUMS says $expected, the download is $actual. The download is corrupt or was tampered with; nothing was installed."
fi
say "verified SHA-256 $actual"

# Only the versioned folder, no absolute paths or parent references.
if gzip -dc "$tmp/$archive" | tar -tf - | grep -v "^syllabus-$version/" | grep -q . ; then
  die "$archive holds files outside syllabus-$version/; nothing was installed."
fi
if gzip -dc "$tmp/$archive" | tar -tf - | grep -q '\.\./'; then
  die "$archive holds parent-folder paths; nothing was installed."
fi
# Plain files and folders only: a link in the archive could point a later chmod or write anywhere.
if gzip -dc "$tmp/$archive" | tar -tvf - | grep -q '^[^-d]'; then
  die "$archive holds links or special files; nothing was installed."
fi

# Never write through a link: the install and bin folders must be real folders.
for dir in "$install_dir" "$bin_dir"; do
  [ ! -L "$dir" ] || die "$dir is a symbolic link; set SYLLABUS_INSTALL_DIR and SYLLABUS_BIN_DIR to real folders. Nothing was installed."
done

mkdir -p "$install_dir" || die "cannot create $install_dir; set SYLLABUS_INSTALL_DIR to a writable folder."
staging="$install_dir/.staging-$$"
rm -rf "$staging"
mkdir "$staging"
gzip -dc "$tmp/$archive" | (cd "$staging" && tar -xf -) || die "could not unpack $archive; nothing was installed."
launcher="$staging/syllabus-$version/bin/syllabus"
[ -f "$launcher" ] && [ ! -L "$launcher" ] && [ -f "$staging/syllabus-$version/lib/syllabus.mjs" ] \
  || die "$archive does not contain bin/syllabus and lib/syllabus.mjs; nothing was installed."
# chmod follows links: change permissions only when neither bin nor the launcher is one.
[ ! -L "$staging/syllabus-$version/bin" ] || die "$archive makes bin a link; nothing was installed."
chmod 755 "$launcher"
# The new version must run and say it is $version before it becomes current.
reported=$(SYLLABUS_NO_UPDATE=1 "$launcher" --version 2>&1) || die "syllabus $version does not run: $reported. Nothing was changed."
[ "$reported" = "$version" ] || die "the release says it is version $reported, not $version; nothing was changed."

# Points the link $install_dir/$1 at $2 atomically: a new link under a temporary name, renamed over the old one
# (rename(2) through Node, which is here anyway: POSIX mv would move the new link into the folder the old one names).
switch_link() {
  rm -f "$install_dir/.$1-$$"
  ln -s "$2" "$install_dir/.$1-$$" \
    && node -e 'require("node:fs").renameSync(process.argv[1], process.argv[2])' "$install_dir/.$1-$$" "$install_dir/$1" \
    || { rm -f "$install_dir/.$1-$$"; die "could not point $install_dir/$1 at $2."; }
}

previous=$(readlink "$install_dir/current" 2>/dev/null || true)
previous=${previous##*/}
if [ -e "$install_dir/syllabus-$version" ]; then
  mv "$install_dir/syllabus-$version" "$staging/replaced"
fi
mv "$staging/syllabus-$version" "$install_dir/syllabus-$version"
switch_link current "syllabus-$version"
if [ -n "$previous" ] && [ "$previous" != "syllabus-$version" ] && [ -d "$install_dir/$previous" ]; then
  switch_link previous "$previous"
fi

mkdir -p "$bin_dir" || die "cannot create $bin_dir; set SYLLABUS_BIN_DIR to a writable folder."
ln -sfn "$install_dir/current/bin/syllabus" "$bin_dir/syllabus"

installed=$(SYLLABUS_NO_UPDATE=1 "$bin_dir/syllabus" --version 2>&1) || die "installed, but $bin_dir/syllabus does not run: $installed"
say "installed syllabus $installed in $install_dir/syllabus-$version, linked as $bin_dir/syllabus"
case ":${PATH:-}:" in
  *":$bin_dir:"*) say "run: syllabus doctor" ;;
  *) say "$bin_dir is not on your PATH; add this line to your shell profile (~/.profile, ~/.bashrc or ~/.zshrc), then open a new shell:"
     printf '  export PATH="%s:$PATH"\n' "$bin_dir" ;;
esac
