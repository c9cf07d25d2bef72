#!/bin/sh
# Every input that once crashed a fuzz harness (fuzz/regress/NAME/, each
# file named after the bug), and the committed seeds (fuzz/seeds/NAME/),
# replayed through the harness built with the normal compiler
# (tests/fuzz_NAME, from fuzz/fuzz_NAME.c + fuzz/replay.c).  Under
# `make sanitize` this runs with ASan + UBSan like the fuzzer did.
. tests/lib.sh
make_tmp
ran=0
for bin in tests/fuzz_*; do
	[ -x "$bin" ] || continue
	name=${bin#tests/fuzz_}
	files=$(ls fuzz/regress/"$name"/* fuzz/seeds/"$name"/* 2>/dev/null)
	[ -n "$files" ] || continue
	n=$(echo "$files" | wc -l)
	run "$name: $n inputs" "$bin" $files
	expect_rc "$name" 0
	ran=$((ran + n))
done
[ $ran -gt 0 ] || skip "no tests/fuzz_* built or no inputs to replay"
echo "$ran inputs replayed"
[ $nfail -eq 0 ]
