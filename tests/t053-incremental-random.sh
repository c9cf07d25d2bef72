#!/bin/sh
# Threads built again only around new mail (thread_update.c) equal threads
# built from everything, on random archives made to break that: the
# messages of tests/t053-incremental-random.py (few senders, versions,
# covers, unthreaded series, v2 as a reply, change-ids, orphan replies,
# parents that arrive later, a reference loop), shuffled, imported in
# random slices with a match after each, against one import and one match.
# Several seeds; each must also have built some slice as a part, and the
# counts each match prints must be those of its tables.
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp

dump() {
	for t in thread series replies review_tags thread_pending; do
		echo "== $t"
		sqlite3 "$1" "SELECT * FROM $t" | LC_ALL=C sort
	done
}

for seed in 1 2 3 4 5; do
	W=$TMP/s$seed
	mkdir -p "$W"
	python3 tests/t053-incremental-random.py "$seed" "$W/all.mbox" ||
		fail "seed $seed: the archive could not be built"
	"$ONLIST" -q --db "$W/full.db" import --list l "$W/all.mbox" >/dev/null ||
		fail "seed $seed: import"
	"$ONLIST" -q --db "$W/full.db" match >/dev/null || fail "seed $seed: match"
	dump "$W/full.db" >"$W/full.dump"
	[ "$(sqlite3 "$W/full.db" 'SELECT count(*) FROM thread')" -gt 150 ] ||
		fail "seed $seed: too few messages (test bug)"

	# random slices, 1 to 40 messages each
	np=$(python3 - "$seed" "$W/all.mbox" "$W/part" <<'PY'
import random, re, sys
rnd = random.Random(int(sys.argv[1]) * 7919)
data = open(sys.argv[2], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
k = i = 0
while i < len(msgs):
    n = rnd.randint(1, 40)
    k += 1
    open("%s.%d" % (sys.argv[3], k), "wb").write(b"".join(msgs[i:i + n]))
    i += n
print(k)
PY
)
	parts=0
	k=1
	while [ "$k" -le "$np" ]; do
		"$ONLIST" -q --db "$W/parts.db" import --list l "$W/part.$k" >/dev/null ||
			fail "seed $seed: import part $k"
		ONLIST_TIMING=1 "$ONLIST" -q --db "$W/parts.db" match >"$W/out" 2>"$W/err" ||
			fail "seed $seed: match after part $k"
		# the counts a part adds to the last build's are the tables'
		sqlite3 "$W/parts.db" "SELECT (SELECT count(*) FROM thread WHERE parent IS NULL)
			|| ' threads, ' || (SELECT count(*) FROM series WHERE series = msgid)
			|| ' series in ' || (SELECT count(DISTINCT topic) FROM series)
			|| ' topics, ' || (SELECT count(*) FROM replies) || ' replies to patches'" >"$W/counts"
		head -n 1 "$W/out" | cmp -s - "$W/counts" ||
			bad "seed $seed: part $k: counts $(head -n 1 "$W/out"), tables $(cat "$W/counts")"
		set -- $(sed -n 's/^timing: threads of \([0-9]*\) of \([0-9]*\) messages computed$/\1 \2/p' "$W/err")
		[ "$#" = 2 ] && [ "$1" -lt "$2" ] && parts=$((parts + 1))
		k=$((k + 1))
	done
	dump "$W/parts.db" >"$W/parts.dump"
	same_output "seed $seed: $np slices" "$W/full.dump" "$W/parts.dump" ||
		{ diff "$W/full.dump" "$W/parts.dump" | head -20; bad "seed $seed: slices differ from one import"; }
	[ "$parts" -ge 2 ] || bad "seed $seed: only $parts of $np matches built threads as a part"
	echo "seed $seed: $np slices, $parts built as parts"
done

[ $nfail -eq 0 ] && echo "slices equal one import on every seed"
[ $nfail -eq 0 ]
