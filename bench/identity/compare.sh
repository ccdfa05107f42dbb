#!/bin/sh
# compare.sh OLD NEW [rounds]: build fuzzmin at two revisions of this
# repository and time each on this module's entries, old and new in turn
# in every round (3 by default), each run on a fresh copy of the entries:
# all 11 entries (fuzzmin .), and the two that hang alone
# (fuzzmin -run='FuzzSpin|FuzzWait' .). The first round of each binary
# warms the build cache and, for a fuzzmin that reads message templates,
# its template cache; it is printed apart.
set -eu
old=$1 new=$2 rounds=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for rev in "$old" "$new"; do
	mkdir "$work/src-$rev"
	git -C "$repo" archive "$rev" | tar -x -C "$work/src-$rev"
	(cd "$work/src-$rev" && go build -o "$work/fuzzmin-$rev" ./cmd/fuzzmin)
done
export XDG_CACHE_HOME="$work/cache"

# run BIN [ARGS]: the wall time of one run on a fresh copy, in ms.
run() {
	bin=$1
	shift
	rm -rf "$work/mod"
	mkdir -p "$work/mod/testdata"
	cp "$here/go.mod" "$here/codec.go" "$here/codec_test.go" "$work/mod/"
	cp -r "$here/entries" "$work/mod/testdata/fuzz"
	start=$(date +%s%N)
	(cd "$work/mod" && "$bin" "$@" . >"$work/out.txt" 2>&1) || true
	end=$(date +%s%N)
	echo $(((end - start) / 1000000))
}

for r in $(seq 0 "$rounds"); do
	for rev in "$old" "$new"; do
		all=$(run "$work/fuzzmin-$rev")
		hangs=$(run "$work/fuzzmin-$rev" -run='FuzzSpin|FuzzWait')
		tail -1 "$work/out.txt" | sed "s/^/	$rev: /"
		if [ "$r" = 0 ]; then
			echo "warm-up $rev: all ${all} ms, hangs ${hangs} ms"
		else
			echo "round $r $rev: all ${all} ms, hangs ${hangs} ms"
		fi
	done
done
