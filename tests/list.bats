#!/usr/bin/env bats
# Listings: --initial's present records and the list verb are written whole,
# whatever the deadline and however slowly the reader reads.

load helper

# The binary itself: tests/watchq-logged would put a tee between watchq and a slow reader.
REAL=$BATS_TEST_DIRNAME/../watchq

setup_file() {
	build_burst
}

# many N: N tmpfs mounts below $T/many; $NMOUNTS is then how many mounts $T/many holds.
many() {
	mkdir "$T/many"
	"$BURST" populate "$T/many" "$1"
	NMOUNTS=$(findmnt -rn -o TARGET | grep -c "^$T/many/")
}

@test "--initial -t 0 into a slow reader: every present record, then the deadline (2)" {
	need_root
	many 320
	for be in fanotify mountinfo; do
		run bash -c '"$1" -q -t 0 --backend="$2" --json --initial mounts "$3/many" |
			(sleep 1; jq -c .) >"$3/out"; echo "${PIPESTATUS[0]}"' _ "$REAL" "$be" "$T"
		# A kernel without fanotify mount events: 69, and mountinfo is tested.
		[ "$be" = fanotify ] && [ "$output" = 69 ] && continue
		[ "$output" = 2 ]
		[ "$(grep -c '"event":"present"' "$T/out")" -eq "$NMOUNTS" ]
	done
}

@test "--initial -t 0 as another user into a pipe root made: every present record" {
	need_root
	many 320
	chmod 755 "$T"
	run bash -c 'setpriv --reuid=65534 --regid=65534 --clear-groups "$1" -q -t 0 --initial mounts "$2/many" |
		(sleep 1; cat) >"$2/out"; echo "${PIPESTATUS[0]}"' _ "$REAL" "$T"
	[ "$output" = 2 ]
	[ "$(grep -c '^mount present ' "$T/out")" -eq "$NMOUNTS" ]
}

@test "--initial -n N counts changes, not present records" {
	need_root
	many 5
	start_watchq -n 1 --initial mounts "$T/many"
	wait_until lines_at_least 5
	mkdir "$T/many/x"
	mount -t tmpfs wq "$T/many/x"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(grep -c '^mount present ' "$T/out")" -eq 5 ]
	grep -q "^mount mount $T/many/x " "$T/out"
}

