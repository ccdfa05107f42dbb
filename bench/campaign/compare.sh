#!/bin/sh
# compare.sh [seconds]: fuzz the six targets of this module for that
# many seconds in all (300 by default) with fuzzmin fuzz, and with a shell loop of go test -fuzz
# giving each target a sixth of it, each from an empty generated corpus
# and seed corpus, and print the bugs each found. Needs fuzzmin on PATH.
set -eu
total=${1:-300}
secs=$((total / 6))
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -rf testdata' EXIT
targets="FuzzParseNum FuzzHeader FuzzSum FuzzWords FuzzPort FuzzToken"

# bugs names the bugs whose panics the files show, by the line of bugs.go
# each panics at (the campaign masks the numbers of the messages).
bugs() {
	grep -ohE 'bugs\.go:[0-9]+' "$@" | sort -u | while IFS=: read -r _ n; do
		sed -n "${n}p" bugs.go | grep -o 'bug[0-9]' || true
	done | sort -u | tr '\n' ' '
}

rm -rf testdata
export GOCACHE="$work/campaign-cache"
go test -c -fuzz=. -o /dev/null . >/dev/null
start=$(date +%s)
fuzzmin fuzz -fuzztime="${total}s" . >"$work/campaign.txt" 2>&1 || true
end=$(date +%s)
echo "campaign (${total} s, $((end - start)) s in all):" $(bugs "$work/campaign.txt")
grep -E '^(example|target)' "$work/campaign.txt" || true

rm -rf testdata
export GOCACHE="$work/loop-cache"
go test -c -fuzz=. -o /dev/null . >/dev/null
start=$(date +%s)
for t in $targets; do
	go test -run='^$' -fuzz="^$t\$" -fuzztime="${secs}s" . >"$work/loop-$t.txt" 2>&1 || true
done
end=$(date +%s)
echo "loop ($secs s a target, $((end - start)) s in all):" $(bugs "$work"/loop-*.txt)
