#!/usr/bin/env bash
# Builds the benchmark's built static sites (bench/html-sites.ts) into bench/html-sites/ (git-ignored):
#   mkdocs-owasp/  MkDocs over ../shared/data/docs-corpus/owasp-cheatsheets
#   hugo-tldr/     Hugo over ../shared/data/docs-corpus/tldr-pages
# Needs Debian's mkdocs and hugo (installed with apt-get when missing and run as root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
data="${FRONTDOOR_SHARED_DATA:-$repo/../shared/data}"
out="$repo/bench/html-sites"
corpus="$data/docs-corpus"
[ -d "$corpus/owasp-cheatsheets" ] || { echo "missing $corpus (set FRONTDOOR_SHARED_DATA)" >&2; exit 1; }
if ! command -v mkdocs >/dev/null || ! command -v hugo >/dev/null; then
  if [ "$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -q mkdocs hugo >/dev/null
  else echo "install mkdocs and hugo: apt-get install mkdocs hugo" >&2; exit 1; fi
fi
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# MkDocs: its config beside a copy of the cheat sheets (docs_dir may not hold the config).
cp "$here/html-sites/mkdocs.yml" "$work/mkdocs.yml"
cp -r "$corpus/owasp-cheatsheets" "$work/docs"
rm -rf "$out/mkdocs-owasp"
(cd "$work" && mkdocs build --quiet --site-dir "$out/mkdocs-owasp")
echo "mkdocs-owasp: $(find "$out/mkdocs-owasp" -name '*.html' | wc -l) HTML files ($(mkdocs --version))"

# Hugo: the theme's site folder with the tldr pages as its content.
cp -r "$here/html-sites/hugo" "$work/hugo"
cp -r "$corpus/tldr-pages" "$work/hugo/content"
# tldr writes key placeholders as {{<ArrowUp>|…}}, which Hugo reads as shortcodes: in the 46 files
# that have them, a space after the braces makes them text again (the only change to the sources).
grep -rlE '\{\{[<%]' "$work/hugo/content" | xargs -r sed -i -E 's/\{\{([<%])/{{ \1/g'
rm -rf "$out/hugo-tldr"
(cd "$work/hugo" && hugo --quiet --destination "$out/hugo-tldr")
echo "hugo-tldr: $(find "$out/hugo-tldr" -name '*.html' | wc -l) HTML files ($(hugo version | cut -d' ' -f1-2))"
