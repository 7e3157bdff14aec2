#!/usr/bin/env bats
# Adversarial cases of who made a change (issue 32's truth rule): each test sets up a record
# whose process must be named `-` (or by the call that made it), and fails where watchq names
# another process, or the same process as it was at another call.
load helper

setup_file() {
	build_burst
	export ADV=$BATS_FILE_TMPDIR/adv
	cc -O2 -pthread -o "$ADV" "$BATS_TEST_DIRNAME/adv.c"
}

need_capture() {
	local err
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15"
	err=$("$WATCHQ" -t 0 mounts / 2>&1 >/dev/null) || true
	case $err in
	*"(backend fanotify+bpf)"*) ;;
	*) skip "no capture: $err" ;;
	esac
}

# peers: $T/p1 a shared tmpfs, $T/p2 its peer (a bind mount), $T/p1/a a directory in both.
peers() {
	mkdir -p "$T/p1" "$T/p2"
	mount -t tmpfs pp "$T/p1"
	mount --make-shared "$T/p1"
	mount --bind "$T/p1" "$T/p2"
	mkdir "$T/p1/a"
}

show() { echo "--- out"; cat "$T/out"; echo "--- err"; cat "$T/err"; }

@test "adv: a propagation copy made by a process's second call is not named as at its first" {
	need_capture
	peers
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first mount "$T/p1/a" name wq-second mount "$T/p2/a" say done hold >"$T/h" &
	p=$!
	HOLDERS=$p
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 4
	stop_watchq
	show
	# The copy at p1/a that the second call made (the later mount there) was made as wq-second.
	jq -e -s --arg a "$T/p1/a" '[.[] | select(.event == "mount" and .path == $a)] |
		length == 2 and (.[1].comm == null or .[1].comm == "wq-second")' "$T/out"
}

@test "adv: a pid taken again: a propagation copy is not named for the other process's call at its path" {
	need_capture
	peers
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-victim mount "$T/p1/a" &
	r=$!
	wait "$r"
	"$ADV" nsas "$r" name wq-contain mount "$T/p2/a" || skip "clone3 with set_tid failed"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 4
	stop_watchq
	show
	# Mounts by call: p1/a's first (victim's call), p2/a's first (a copy, made in the victim's
	# call), p2/a's second (contain's call), p1/a's second (a copy, made in contain's call).
	jq -e -s --arg a "$T/p1/a" --arg b "$T/p2/a" '
		([.[] | select(.event == "mount" and .path == $a)] | .[1].comm != "wq-victim") and
		([.[] | select(.event == "mount" and .path == $b)] | .[0].comm != "wq-contain")' "$T/out"
}

# debugfs on $T/dbg, whose "tracing" automounts tracefs when walked into; skips where it cannot.
automount_point() {
	mkdir "$T/dbg"
	mount -t debugfs none "$T/dbg" || skip "cannot mount debugfs here"
	[ -d "$T/dbg/tracing" ] || skip "no tracing directory in debugfs"
	mountpoint -q "$T/dbg/tracing" && umount "$T/dbg/tracing"
	return 0
}

@test "adv: an automount where a reaped mounter had mounted, walked into by its pid's next process, names nobody" {
	need_capture
	automount_point
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-victim mount "$T/dbg/tracing" umount "$T/dbg/tracing" &
	r=$!
	wait "$r" || skip "cannot mount on the automount point"
	"$ADV" nsas "$r" name wq-walker walk "$T/dbg/tracing" || skip "clone3 with set_tid failed"
	[ "$(findmnt -n -o FSTYPE "$T/dbg/tracing")" = tracefs ] || skip "no tracefs automount here"
	kill -CONT "$WQ_PID"
	wait_until grep -q tracefs "$T/out"
	stop_watchq
	show
	jq -e -s --arg t "$T/dbg/tracing" '[.[] | select(.event == "mount" and .path == $t and .fstype == "tracefs")] |
		length == 1 and .[0].comm == null and .[0].uid == null' "$T/out"
}

@test "adv: an automount walked into by a process that mounted there before (renamed since) names nobody" {
	need_capture
	automount_point
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-mounter mount "$T/dbg/tracing" umount "$T/dbg/tracing" name wq-walker \
	    walk "$T/dbg/tracing" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
	wait_until grep -q tracefs "$T/out"
	stop_watchq
	show
	jq -e -s --arg t "$T/dbg/tracing" '[.[] | select(.event == "mount" and .path == $t and .fstype == "tracefs")] |
		length == 1 and .[0].comm == null and .[0].uid == null' "$T/out"
}

@test "adv: a mount call by a relative path, then an automount walked into: the automount names nobody" {
	need_capture
	automount_point
	mkdir "$T/a"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-mounter chdir "$T" mount a name wq-walker walk "$T/dbg/tracing" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 2
	stop_watchq
	show
	jq -e -s --arg t "$T/dbg/tracing" '[.[] | select(.event == "mount" and .path == $t)] |
		length == 1 and .[0].comm == null and .[0].uid == null' "$T/out"
}
