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
		# stderr apart: where fanotify is missing, watchq says why there; output is the status.
		run --separate-stderr bash -c '"$1" -q -t 0 --backend="$2" --json --initial mounts "$3/many" |
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

@test "list: the mounts at or below each TARGET as findmnt has them, exit 0, nothing on stderr" {
	need_root
	mkdir "$T/a" "$T/c" "$T/d"
	mount -t tmpfs wq-a "$T/a"
	mkdir "$T/a/b"
	mount -t tmpfs wq-b "$T/a/b"
	mount -t tmpfs wq-c "$T/c"
	mount -t tmpfs wq-d "$T/d"
	findmnt -rn -o TARGET | grep -E "^$T/(a|c)(/|$)" | sort >"$T/want"
	for be in fanotify mountinfo; do
		run --separate-stderr "$WATCHQ" --backend="$be" list --json mounts "$T/a" "$T/c"
		[ "$be" = fanotify ] && [ "$status" -eq 69 ] && continue
		[ "$status" -eq 0 ] && [ -z "$stderr" ]
		echo "$output" | jq -r 'select(.event == "present") | .path' | sort >"$T/got"
		diff "$T/want" "$T/got"
		[ "$(echo "$output" | jq -r .event | sort -u)" = present ]
	done
	# Text, --format, -0 and the filters are those of --initial.
	run --separate-stderr "$WATCHQ" list mounts "$T/c"
	[ "$status" -eq 0 ] && [ "$output" = "mount present $T/c tmpfs wq-c" ]
	"$WATCHQ" list --format '%e %p' -0 --source wq-d mounts "$T" >"$T/out0"
	printf 'present %s/d\0' "$T" | cmp - "$T/out0"
	# Nothing left by a filter: exit 1, as findmnt -t exits, and nothing said.
	run --separate-stderr "$WATCHQ" list --fstype notmpfs mounts "$T"
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ -z "$stderr" ]
}

@test "list: a DIR with nothing at or below it exits 1, as findmnt does, and says so once" {
	need_root
	mkdir -p "$T/none" "$T/m" "$T/below/x"
	mount -t tmpfs wq-m "$T/m"
	mount -t tmpfs wq-x "$T/below/x"
	for be in fanotify mountinfo; do
		run --separate-stderr "$WATCHQ" --backend="$be" list mounts "$T/none"
		[ "$be" = fanotify ] && [ "$status" -eq 69 ] && continue
		[ "$status" -eq 1 ] && [ -z "$output" ]
		[ "$stderr" = "watchq: $T/none: no mount at or below it (list --target mounts $T/none: the mount that holds it)" ]
	done
	# The others are listed whole all the same; -q says nothing; -qq: the status alone.
	run --separate-stderr "$WATCHQ" -q list mounts "$T/m" "$T/none"
	[ "$status" -eq 1 ] && [ -z "$stderr" ] && [ "$output" = "mount present $T/m tmpfs wq-m" ]
	# Not a mount point, but one below it: listed, 0.
	run --separate-stderr "$WATCHQ" list mounts "$T/below"
	[ "$status" -eq 0 ] && [ "$output" = "mount present $T/below/x tmpfs wq-x" ]
	# A script's question, as findmnt -S asks it.
	run "$WATCHQ" -qq list --source wq-m mounts "$T"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	run "$WATCHQ" -qq list --source wq-gone mounts "$T"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	# --target always finds one; a filter can leave it out.
	run --separate-stderr "$WATCHQ" list --target --fstype notmpfs mounts "$T/none"
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ -z "$stderr" ]
	# Keys and sb always have something to say; a list into a closed pipe is still 141.
	run --separate-stderr "$WATCHQ" list sb "$T/none"
	[ "$status" -eq 0 ]
}

@test "list: mounts in mount order, as findmnt -l lists them, on both backends" {
	need_root
	mkdir -p "$T/x/deep" "$T/y"
	mount -t tmpfs wq-1 "$T/x/deep"
	mount -t tmpfs wq-2 "$T/y"
	mkdir "$T/y/m"
	# Moved below a newer mount: mount order puts it before its parent.
	mount --move "$T/x/deep" "$T/y/m"
	mount -t tmpfs wq-3 "$T/x"
	findmnt -l -n -o TARGET | grep "^$T/" >"$T/want"
	[ "$(sed -n 1p "$T/want")" = "$T/y/m" ]
	for be in fanotify mountinfo; do
		run --separate-stderr "$WATCHQ" --backend="$be" list --format %p mounts "$T"
		[ "$be" = fanotify ] && [ "$status" -eq 69 ] && continue
		[ "$status" -eq 0 ]
		echo "$output" | grep "^$T/" | diff "$T/want" -
	done
}

@test "list --target: the mount that holds each DIR, as findmnt -T; the top of a stack, not a hidden one" {
	need_root
	mkdir -p "$T/a" "$T/s" "$T/h/b"
	mount -t tmpfs wq-a "$T/a"
	mkdir -p "$T/a/sub/deep"
	mount -t tmpfs wq-under "$T/s"
	mount -t tmpfs wq-over "$T/s"
	# $T/h/b's mount hidden by one over $T/h, in which b is a directory again.
	mount -t tmpfs wq-b "$T/h/b"
	mount -t tmpfs wq-h "$T/h"
	mkdir "$T/h/b"
	for be in fanotify mountinfo; do
		run --separate-stderr "$WATCHQ" --backend="$be" list --target mounts "$T/a/sub/deep" \
			"$T/s" "$T/h/b" "$T/a"
		[ "$be" = fanotify ] && [ "$status" -eq 69 ] && continue
		[ "$status" -eq 0 ] && [ -z "$stderr" ]
		[ "$output" = "mount present $T/a tmpfs wq-a
mount present $T/s tmpfs wq-over
mount present $T/h tmpfs wq-h
mount present $T/a tmpfs wq-a" ]
	done
	[ "$(findmnt -n -o SOURCE -T "$T/a/sub/deep")" = wq-a ]
	# The watch is the DIR as given; --json, --format and the filters as for any listing.
	run --separate-stderr "$WATCHQ" list --target --json mounts "$T/a/sub/../sub/deep"
	[ "$(echo "$output" | jq -c '[.watch, .path, .device]')" = "[\"$T/a/sub/../sub/deep\",\"$T/a\",\"wq-a\"]" ]
	run --separate-stderr "$WATCHQ" list --target --format '%w %p' --source wq-over mounts "$T/a" "$T/s"
	[ "$output" = "$T/s $T/s" ]
}

@test "list into a slow reader, and as another user: every mount, exit 0" {
	need_root
	many 320
	run bash -c '"$1" list --json mounts "$2/many" | (sleep 1; jq -c .) >"$2/out"; echo "${PIPESTATUS[0]}"' _ "$REAL" "$T"
	[ "$output" = 0 ]
	[ "$(grep -c '"event":"present"' "$T/out")" -eq "$NMOUNTS" ]
	chmod 755 "$T"
	run bash -c 'setpriv --reuid=65534 --regid=65534 --clear-groups "$1" list mounts "$2/many" 2>"$2/err" |
		(sleep 1; cat) >"$2/out"; echo "${PIPESTATUS[0]}"' _ "$REAL" "$T"
	[ "$output" = 0 ]
	[ ! -s "$T/err" ]
	[ "$(grep -c '^mount present ' "$T/out")" -eq "$NMOUNTS" ]
}

@test "list whose reader goes away: as if killed by SIGPIPE (141), never 0" {
	need_root
	many 320
	run bash -c '"$1" list --json mounts "$2/many" 2>"$2/err" | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}"' _ "$REAL" "$T"
	[ "$output" = 141 ]
	[ ! -s "$T/err" ]
}

@test "list: what waits or counts changes is a usage error (64)" {
	for opts in "-t 1" "-m" "-e present" "-E mount"; do
		run --separate-stderr "$WATCHQ" list $opts mounts /
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: list prints the present state whole and exits: -t, -n, -m, -e, -E and --space-below do not apply" ]
	done
	run --separate-stderr "$WATCHQ" list
	[ "$status" -eq 64 ] && [ "$stderr" = "watchq: list needs a SOURCE, e.g. watchq list mounts /" ]
	# -n, as findmnt -n (no headings) is typed, whatever follows it: no count is talked of.
	for opts in "-n mounts /" "-n" "-n 1 mounts" "-qn mounts"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$WATCHQ" list $opts
		[ "$status" -eq 64 ] && [ -z "$output" ]
		[ "$stderr" = "watchq: -n is --count here, which list does not take; findmnt's -n (no headings) is what list does anyway" ]
	done
	run --separate-stderr "$WATCHQ" list --mount / mounts /
	[ "$status" -eq 64 ]
	run --separate-stderr "$WATCHQ" list key @s
	[ "$status" -eq 64 ] && [ "$stderr" = "watchq: unknown source 'key' (mounts, keys, sb); did you mean keys?" ]
	run --separate-stderr "$WATCHQ" list --fstype tmpfs keys
	[ "$status" -eq 64 ] && [ "$stderr" = "watchq: --fstype applies to mounts" ]
}

# new_session: our own session keyring, for this test shell and what it starts.
new_session() {
	command -v keyctl >/dev/null || skip "keyctl (keyutils) missing"
	keyctl new_session >/dev/null 2>&1 || skip "cannot join a new session keyring here"
	SES=$(keyctl show @s | awk 'NR == 2 { print $1 }')
	A=$(keyctl add user wq-a va @s)
	B=$(keyctl add user wq-b vb @s)
	R=$(keyctl newring wq-in @s)
	C=$(keyctl add user wq-c vc "$R")
}

# keyctl_view: "SERIAL TYPE:DESCRIPTION" of each key keyctl show @s lists, sorted.
keyctl_view() {
	keyctl show @s | sed -n '2,$s/^ *\([0-9]*\) .* \([a-z_.]*\): \(.*\)$/\1 \2:\3/p' | sort
}

@test "list keys: a keyring's own state and the keys linked in it, as keyctl show has them" {
	new_session
	keyctl_view >"$T/want"
	[ "$(wc -l <"$T/want")" -eq 5 ]
	run --separate-stderr "$WATCHQ" list --recursive keys
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	echo "$output" | awk '{ print $4, $5 }' | sort | diff "$T/want" -
	# Each line ends with keyctl show's columns: our keys, all rights to us as their possessor.
	mine="perm=--alswrv uid=$(id -u) gid=$(id -g)"
	[ "${lines[0]}" = "key present @s $SES keyring:_ses $mine" ]
	echo "$output" | grep -qx "key present @s $C user:wq-c keyring=$R $mine"
	echo "$output" | grep -qx "key present @s $A user:wq-a keyring=$SES $mine"
	# Without --recursive: the keys linked in the keyring named, not below.
	run --separate-stderr "$WATCHQ" list keys @s
	[ "$status" -eq 0 ] && [ "${#lines[@]}" -eq 4 ]
	[[ "$output" != *wq-c* ]]
	run --separate-stderr "$WATCHQ" list keys "$R"
	[ "$status" -eq 0 ]
	[ "$output" = "key present $R $R keyring:wq-in $mine
key present $R $C user:wq-c keyring=$R $mine" ]
	run --separate-stderr "$WATCHQ" list --json --recursive keys
	[ "$status" -eq 0 ]
	echo "$output" | jq -r '"\(.key) \(.type):\(.description)"' | sort | diff "$T/want" -
	[ "$(echo "$output" | jq -c "select(.key == $SES) | [.event, .keyring, .aux]")" = \
	    '["present",null,0]' ]
	[ "$(echo "$output" | jq 'select(.key == '"$C"') | .keyring')" = "$R" ]
	"$WATCHQ" list --format '%e %k' -0 keys "$R" >"$T/out0"
	printf 'present %s\0present %s\0' "$R" "$C" | cmp - "$T/out0"
}

@test "list keys: keyctl show's permission, uid and gid columns; JSON has keyctl describe's mask" {
	new_session
	# Rights of the possessor and owner (a key is possessed where it can be searched for), and
	# (root can give a key away) of the possessor and other, for a key of another owner and group.
	keyctl setperm "$A" 0x09020000
	keyctl setperm "$B" 0x1b030000
	if [ "$(id -u)" -eq 0 ]; then
		keyctl chown "$C" 4242
		keyctl chgrp "$C" 4243
		keyctl setperm "$C" 0x09000006
	fi
	keyctl show @s | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1, $2, $3, $4 }' | sort >"$T/want"
	[ "$(wc -l <"$T/want")" -eq 5 ]
	# Not possessed (no search right for its possessor), and no view right for its owner.
	E=$(keyctl add user wq-e ve @s)
	keyctl setperm "$E" 0x01020000
	keyctl show @s | grep -qx "$E: key inaccessible (Permission denied)"
	run --separate-stderr "$WATCHQ" list --recursive keys
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	echo "$output" | grep -v "^key present @s $E " |
		awk '{ n = NF; print $4, substr($(n - 2), 6), substr($(n - 1), 5), substr($n, 5) }' | sort >"$T/got"
	cat "$T/want" "$T/got"
	diff "$T/want" "$T/got"
	grep -q "^$A ----s-rv " "$T/got" && grep -q "^$B ---ls-rv " "$T/got"
	echo "$output" | grep -qx "key present @s $E - keyring=$SES perm=- uid=- gid=-"
	[ "$(id -u)" -ne 0 ] || grep -qx "$C ----swrv 4242 4243" "$T/got"
	# JSON: the whole mask, owner and group, as keyctl describe has them; null in change records.
	run --separate-stderr "$WATCHQ" list --json --recursive keys
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -c "select(.key == $E) | [.perm, .uid, .gid]")" = "[null,null,null]" ]
	for k in $SES $A $B $R $C; do
		want=$(keyctl rdescribe "$k" | cut -d';' -f2-4)
		got=$(echo "$output" | jq -r "select(.key == $k) | \"\(.uid);\(.gid);\(.perm)\"")
		[ "${got%;*};$(printf '%08x' "${got##*;}")" = "$want" ] || { echo "$k: $got, not $want"; false; }
	done
	WATCHQ_BACKEND= start_watchq --json --interval 0.05 keys
	keyctl add user wq-f vf @s >/dev/null
	wait_until lines_at_least 1
	stop_watchq
	jq -e '.event == "linked" and .perm == null and .uid == null and .gid == null' "$T/out"
}

@test "--initial keys: the present records of list, then the changes" {
	new_session
	"$WATCHQ" list keys >"$T/list"
	WATCHQ_BACKEND= start_watchq --interval 0.05 --initial keys
	wait_until lines_at_least 4
	D=$(keyctl add user wq-d vd @s)
	wait_until grep -q "^key linked " "$T/out"
	stop_watchq
	head -n 4 "$T/out" | diff "$T/list" -
	[ "$(sed -n 5p "$T/out")" = "key linked @s $D user:wq-d keyring=$SES" ]
}

@test "list sb: each path's filesystem, its read-only state and space; ro of a read-only mount" {
	need_root
	mkdir "$T/t" "$T/ro"
	mount -t tmpfs -o size=4m wq-t "$T/t"
	mkdir "$T/t/sub"
	mount -t tmpfs -o ro,size=8m wq-ro "$T/ro"
	read -r a bs b < <(stat -f -c '%a %S %b' "$T/t")
	run --separate-stderr "$WATCHQ" list sb "$T/t/sub" "$T/ro"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	[ "${lines[0]}" = "sb present $T/t tmpfs wq-t rw avail=$((a * bs)) size=$((b * bs))" ]
	[ "${lines[1]}" = "sb present $T/ro tmpfs wq-ro ro avail=$((8 << 20)) size=$((8 << 20))" ]
	run --separate-stderr "$WATCHQ" list --json sb "$T/ro"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -c '[.event, .path, .fstype, .device, .readonly, .state, .size]')" = \
	    "[\"present\",\"$T/ro\",\"tmpfs\",\"wq-ro\",true,\"ro\",$((8 << 20))]" ]
	run --separate-stderr "$WATCHQ" list --format '%e %p %r' sb "$T/ro" "$T/t"
	[ "$output" = "present $T/ro ro
present $T/t rw" ]
	run --separate-stderr "$WATCHQ" list sb "$T/none"
	[ "$status" -eq 64 ]
}

@test "--initial sb: the present records of list, then the changes" {
	need_root
	mkdir "$T/t"
	mount -t tmpfs -o size=4m wq-t "$T/t"
	"$WATCHQ" list sb "$T/t" >"$T/list"
	WATCHQ_BACKEND= start_watchq --initial sb "$T/t"
	wait_until lines_at_least 1
	mount -o remount,ro "$T/t"
	wait_until grep -q "^sb readonly " "$T/out"
	stop_watchq
	head -n 1 "$T/out" | diff "$T/list" -
	[[ "$(sed -n 2p "$T/out")" == "sb readonly $T/t tmpfs wq-t ro (was rw) pid="* ]]
	# present alone can be had: the records, then the deadline.
	run --separate-stderr "$WATCHQ" -q -t 0 --initial -e present sb "$T/t"
	[ "$status" -eq 2 ] && [ "$output" = "sb present $T/t tmpfs wq-t ro avail=$((4 << 20)) size=$((4 << 20))" ]
}

@test "list -N PID: the mounts of that process's namespace, not ours" {
	need_root
	mkdir "$T/n"
	unshare -m --propagation private sh -c 'mount -t tmpfs wq-ns "$1" && echo ready >"$2" && exec sleep 1000' \
		_ "$T/n" "$T/ready" 3>&- &
	HOLDERS=$!
	wait_until [ -s "$T/ready" ]
	run --separate-stderr "$WATCHQ" list -N "$HOLDERS" mounts "$T"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	[ "$(echo "$output" | grep -c "^mount present $T/n tmpfs wq-ns ")" -eq 1 ]
	run --separate-stderr "$WATCHQ" list mounts "$T"
	[ "$status" -eq 0 ]
	[[ "$output" != *wq-ns* ]]
	mkdir "$T/n2"
	run --separate-stderr "$WATCHQ" list --target -N "$HOLDERS" --format %d mounts "$T/n" "$T/n2"
	[ "$status" -eq 0 ] && [ "$output" = "wq-ns
watchq-test" ]
}
