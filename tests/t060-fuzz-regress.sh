#!/bin/sh
# The fuzz harnesses without the fuzzer, built with the normal compiler
# (tests/fuzz_NAME, from fuzz/fuzz_NAME.c + fuzz/replay.c); under `make
# sanitize` with ASan + UBSan, as the fuzzer ran them.  Each replays
#   - every input that once crashed it (fuzz/regress/NAME/, each file
#     named after the bug it found), and committed seeds (fuzz/seeds/NAME/);
#   - the seed corpus fuzz/seeds.py makes from the fixtures, so that
#     every harness runs on a few hundred real inputs even where clang
#     and libFuzzer are not installed.
. tests/lib.sh
need_cmd python3
make_tmp
isolate_git
if sh fixtures/make-fixtures.sh "$TMP/fx" >"$TMP/fx.log" 2>&1; then
	python3 fuzz/seeds.py "$TMP/fx" "$TMP/seeds" || bad "fuzz/seeds.py failed"
else
	echo "note: no fixtures (see $TMP/fx.log), replaying committed inputs only"
fi
ran=0
for bin in tests/fuzz_*; do
	[ -x "$bin" ] || continue
	name=${bin#tests/fuzz_}
	files=$(ls fuzz/regress/"$name"/* fuzz/seeds/"$name"/* "$TMP/seeds/$name"/* 2>/dev/null)
	[ -n "$files" ] || continue
	n=$(echo "$files" | wc -l)
	t0=$(date +%s)
	# shellcheck disable=SC2086
	"$bin" $files >"$TMP/out" 2>&1
	rc=$?
	echo "$name: $n inputs, exit $rc, $(( $(date +%s) - t0 )) s"
	if [ $rc -ne 0 ] || grep -q 'Sanitizer\|runtime error:' "$TMP/out"; then
		tail -n 30 "$TMP/out"
		bad "$name: exit $rc or a sanitizer report on one of: $(echo $files | head -c 300)"
	fi
	ran=$((ran + n))
done
[ $ran -gt 0 ] || skip "no tests/fuzz_* built or no inputs to replay"
echo "$ran inputs replayed"
[ $nfail -eq 0 ]
