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
	run bash -c '"$1" --initial -t 0 -o "$2/out" mounts / 2>&-' _ "$WATCHQ" "$T"
	[ "$status" -eq 2 ]
	[ "$(wc -l <"$T/out")" -ge 1 ]
	run ! grep -v '^mount present ' "$T/out"
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

@test "SIGINT, SIGTERM, SIGHUP: a monitor ends cleanly (0), a wait as if killed by the signal (128+N)" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	for sig in INT TERM HUP; do
		start_watchq mounts "$T"
		kill -$sig "$WQ_PID"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
		start_watchq wait --unmount "$T/a"
		kill -$sig "$WQ_PID"
		finish_watchq
		[ "$WQ_STATUS" -eq $((128 + $(kill -l $sig))) ] || { echo "$sig: $WQ_STATUS"; false; }
		start_watchq wait -e unmount mounts "$T"
		kill -$sig "$WQ_PID"
		finish_watchq
		[ "$WQ_STATUS" -eq $((128 + $(kill -l $sig))) ]
	done
}

@test "Ctrl-C on watchq wait --unmount X && next: next does not run" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	bash -c '"$1" wait --unmount "$2" 2>"$3/err" && echo PROCEEDED' _ "$WATCHQ" "$T/a" "$T" >"$T/out" &
	sh_pid=$!
	wait_until grep -q '^watchq: waiting' "$T/err"
	kill -INT "$(pgrep -P "$sh_pid")"
	st=0
	wait "$sh_pid" || st=$?
	[ "$st" -eq 130 ]
	[ ! -s "$T/out" ]
}

@test "a reader that went away: a wait exits as if killed by SIGPIPE (141), a monitor ends cleanly (0)" {
	need_root
	run bash -c '"$1" -q -t 20 wait --mount "$2/none" | true; echo "${PIPESTATUS[0]}"' _ "$WATCHQ" "$T"
	[ "$output" = 141 ]
	run bash -c '"$1" -q -t 20 mounts "$2" | true; echo "${PIPESTATUS[0]}"' _ "$WATCHQ" "$T"
	[ "$output" = 0 ]
	run bash -c '"$1" -q --initial -t 20 mounts / | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}"' _ "$WATCHQ"
	[ "$output" = 0 ]
	# A wait -e whose reader leaves after the first event.
	mkdir "$T/m" "$T/m/a" "$T/m/b"
	bash -c '"$1" -t 20 -n 5 wait -e mount mounts "$2" 2>"$3/err" | head -n 1 >"$3/out"; echo "${PIPESTATUS[0]}" >"$3/st"' \
		_ "$WATCHQ" "$T/m" "$T" &
	wait_until grep -q '^watchq: watching' "$T/err"
	mount -t tmpfs wq "$T/m/a"
	wait_until [ -s "$T/st" ]
	[ "$(cat "$T/st")" = 141 ]
	[ "$(unmarked)" = "mount mount $T/m/a tmpfs wq" ]
}

# has_signalfd PID: the process has made its signalfd (its signals are blocked from then on).
has_signalfd() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'signalfd'
}

# ended PID: the process has exited (a zombie not yet waited for counts), so that a
# regression fails wait_until instead of hanging the suite.
ended() {
	[ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat")" = Z ]
}

@test "before ready, -o FIFO without a reader: a signal or --timeout ends the wait for one" {
	need_root
	mkfifo "$T/fifo"
	for kind in monitor wait; do
		if [ $kind = monitor ]; then args=(mounts "$T"); want=0; else args=(wait -e mount mounts "$T"); want=143; fi
		"$WATCHQ" -o "$T/fifo" "${args[@]}" 2>"$T/err" &
		WQ_PID=$!
		wait_until has_signalfd "$WQ_PID"
		kill -TERM "$WQ_PID"
		wait_until ended "$WQ_PID"
		finish_watchq
		[ "$WQ_STATUS" -eq $want ] || { echo "$kind: $WQ_STATUS"; false; }
		[ ! -s "$T/err" ]
		run --separate-stderr timeout 10 "$WATCHQ" -t 0.3 -o "$T/fifo" "${args[@]}"
		[ "$status" -eq 2 ]
	done
}

# hold_fifo FIFO: a reader of the new FIFO that never reads, with a pipe of one page,
# which one write fills; FIFO.full appears once a write is waiting there. It holds
# none of bats's fds, so a test that fails before killing it cannot stall the run.
hold_fifo() {
	mkfifo "$1"
	perl -e '
		open(my $f, "+<", $ARGV[0]) or die "open: $!";
		fcntl($f, 1031, 4096) or die "F_SETPIPE_SZ: $!";
		open(my $r, ">", "$ARGV[0].ready") or die; close $r;
		my $n = pack("L", 0);
		until (ioctl($f, 0x541B, $n) && unpack("L", $n) > 0) { select(undef, undef, undef, 0.02) }
		open($r, ">", "$ARGV[0].full") or die; close $r;
		sleep 30;' "$1" 3>&- &
	HOLDERS+=($!)
	wait_until [ -e "$1.ready" ]
}

@test "output blocked by a reader that stops reading: a signal or --timeout still ends the run" {
	need_root
	command -v perl >/dev/null || skip "perl missing"
	HOLDERS=()
	mkdir "$T/m" "$T/m/a" "$T/m/b"
	# A monitor, blocked writing its --initial records: SIGTERM ends it cleanly.
	hold_fifo "$T/f1"
	start_watchq --json --initial -o "$T/f1" mounts /
	wait_until [ -e "$T/f1.full" ]
	kill -TERM "$WQ_PID"
	wait_until ended "$WQ_PID"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	# A wait -e, blocked writing its events: SIGTERM ends it as if killed by it.
	hold_fifo "$T/f2"
	start_watchq --json -n 10 -o "$T/f2" wait -e mount mounts "$T/m"
	mount -t tmpfs wq "$T/m/a"
	mount -t tmpfs wq "$T/m/b"
	wait_until [ -e "$T/f2.full" ]
	kill -TERM "$WQ_PID"
	wait_until ended "$WQ_PID"
	finish_watchq
	[ "$WQ_STATUS" -eq 143 ]
	# --timeout fires while blocked writing changes (present records are written whole).
	hold_fifo "$T/f3"
	mkdir "$T/c"
	start_watchq -t 2 --json -o "$T/f3" mounts "$T/c"
	for i in $(seq 30); do
		mkdir "$T/c/$i"
		mount -t tmpfs wq "$T/c/$i"
	done
	wait_until [ -e "$T/f3.full" ]
	finish_watchq
	[ "$WQ_STATUS" -eq 2 ]
	kill "${HOLDERS[@]}"
}

@test "stdout a pipe whose reader stops: SIGTERM still ends the run, and the pipe stays blocking for whoever shares it" {
	need_root
	command -v perl >/dev/null || skip "perl missing"
	HOLDERS=()
	hold_fifo "$T/f4"
	"$WATCHQ" --json --initial mounts / >"$T/f4" 2>"$T/err" &
	WQ_PID=$!
	wait_until [ -e "$T/f4.full" ]
	# watchq writes through an open file of its own: the one it was given (fd 1) keeps its flags.
	flags=$(awk '$1 == "flags:" { print $2 }' "/proc/$WQ_PID/fdinfo/1")
	[ $((0$flags & 04000)) -eq 0 ]
	kill -TERM "$WQ_PID"
	wait_until ended "$WQ_PID"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	kill "${HOLDERS[@]}"
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
