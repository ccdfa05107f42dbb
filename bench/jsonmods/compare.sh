#!/bin/sh
# compare.sh [seconds]: fuzz the eight targets of this module for that many
# seconds in all (300 by default) with fuzzmin fuzz, and with a shell loop
# of go test -fuzz giving each target an eighth of it, each from empty
# corpora and an empty build cache, and print the failures each found, as
# fuzzmin check names them. Needs fuzzmin on PATH, and the module proxy.
set -eu
total=${1:-300}
secs=$((total / 8))
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -rf gj/testdata jp/testdata' EXIT
targets="gj:FuzzGet gj:FuzzModifiers gj:FuzzParse gj:FuzzSelf jp:FuzzDelete jp:FuzzEach jp:FuzzGet jp:FuzzSet"

# failures prints the failures of the entries written, one a line.
failures() {
	fuzzmin check ./... 2>/dev/null | sed -n 's/^[^ ]*: fails: //p' | sort -u
}

build() {
	go test -c -fuzz=. -o /dev/null ./gj >/dev/null
	go test -c -fuzz=. -o /dev/null ./jp >/dev/null
}

rm -rf gj/testdata jp/testdata
export GOCACHE="$work/campaign-cache"
build
start=$(date +%s)
fuzzmin fuzz -fuzztime="${total}s" ./... >"$work/campaign.txt" 2>&1 || true
end=$(date +%s)
echo "campaign (${total} s, $((end - start)) s in all):"
failures
grep -E '^(example|target)' "$work/campaign.txt" || true

rm -rf gj/testdata jp/testdata
export GOCACHE="$work/loop-cache"
build
start=$(date +%s)
for pt in $targets; do
	go test -run='^$' -fuzz="^${pt#*:}\$" -fuzztime="${secs}s" "./${pt%%:*}" >"$work/loop-${pt%%:*}-${pt#*:}.txt" 2>&1 || true
done
end=$(date +%s)
echo "loop ($secs s a target, $((end - start)) s in all):"
failures
