#!/usr/bin/env bats
# Hostile environments: each ends with a clear message and a documented status.
load helper

@test "standard output closed: a clear error, exit 1 (a wait, which prints nothing, still works)" {
	run --separate-stderr bash -c '"$1" --initial -t 1 mounts / >&-' _ "$WATCHQ"
	[ "$status" -eq 1 ]
	[ "$stderr" = "watchq: standard output is closed (use -o FILE)" ]
	run --separate-stderr bash -c '"$1" -q -t 5 wait --unmount "$2/none" >&-' _ "$WATCHQ" "$T"
	[ "$status" -eq 0 ]
}

@test "standard error closed: events still go only where they belong" {
	run bash -c '"$1" --initial -n 3 -o "$2/out" mounts / 2>&-' _ "$WATCHQ" "$T"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$T/out")" -eq 3 ]
	! grep -v '^mount present ' "$T/out"
}

@test "an output file on a full filesystem: write error named, exit 1" {
	need_root
	mkdir "$T/full"
	mount -t tmpfs -o size=64k wq "$T/full"
	dd if=/dev/zero of="$T/full/fill" bs=4k count=64 2>/dev/null || true
	run --separate-stderr "$WATCHQ" -q --initial -t 5 -o "$T/full/out" mounts /
	[ "$status" -eq 1 ]
	[ "$stderr" = "watchq: write $T/full/out: No space left on device" ]
}

# without_proc ARGS...: run watchq with an empty /proc, setting $status and $msg (its
# stderr without the lines of a sanitizer runtime, which needs /proc and says so).
without_proc() {
	# An empty tmpfs stands for it: under the VM's 9p root, the directory below /proc is the host's.
	run --separate-stderr unshare -m --propagation private sh -c \
		'umount -l /proc && mount -t tmpfs no-proc /proc && exec "$@"' _ "$WATCHQ" "$@"
	msg=$(printf '%s\n' "$stderr" | grep -v '^==[0-9]*==\|^False positive error reports\|^For details see' || true)
}

@test "/proc not mounted: each source names it, exit 1" {
	need_root
	without_proc -q -t 1 mounts /
	[ "$status" -eq 1 ]
	[ "$msg" = "watchq: /proc/self/mountinfo (is /proc mounted?): No such file or directory" ]
	without_proc -q -t 1 sb /
	[ "$status" -eq 1 ]
	[ "$msg" = "watchq: /proc/self/mountinfo (is /proc mounted?): No such file or directory" ]
	without_proc -q -t 1 --backend=poll keys
	[ "$status" -eq 1 ]
	[ "$msg" = "watchq: /proc/keys (is /proc mounted?): No such file or directory" ]
}

@test "a hundred watches at once: each event under its own tag" {
	need_root
	args=()
	for i in $(seq 0 99); do
		mkdir "$T/d$i"
		args+=("$T/d$i")
	done
	start_watchq --format '%t %e %p' mounts "${args[@]}"
	mount -t tmpfs wq "$T/d57"
	mount -t tmpfs wq "$T/d99"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(cat "$T/out")" = "57 mount $T/d57
99 mount $T/d99" ]
}

@test "SIGHUP and SIGINT end a watch cleanly (exit 0)" {
	need_root
	for sig in HUP INT; do
		start_watchq mounts "$T"
		kill -$sig "$WQ_PID"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
	done
}

@test "no fd leaks into a child: every fd watchq opens is close-on-exec" {
	need_root
	mkdir "$T/a"
	# Started with nothing but 0-2 open, so every other fd is watchq's own.
	"$BASH" -c 'for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$@"' _ \
		"$WATCHQ" --space-below 1% mounts "$T" sb "$T" >"$T/out" 2>"$T/err" &
	WQ_PID=$!
	wait_until grep -q '^watchq: watching' "$T/err"
	[ "$(ls /proc/"$WQ_PID"/fd | wc -l)" -gt 5 ]
	# Every fd watchq holds beyond 0-2 must carry O_CLOEXEC (flags in /proc/PID/fdinfo, octal 02000000).
	for f in /proc/"$WQ_PID"/fdinfo/*; do
		fd=${f##*/}
		[ "$fd" -le 2 ] && continue
		flags=$(sed -n 's/^flags:[[:space:]]*//p' "$f")
		(( (8#$flags & 8#2000000) != 0 )) || { echo "fd $fd not O_CLOEXEC: $(readlink /proc/$WQ_PID/fd/$fd)"; false; }
	done
	stop_watchq
}
