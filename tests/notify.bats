#!/usr/bin/env bats
# Type=notify: watchq tells the service manager that it is ready through the
# datagram socket that NOTIFY_SOCKET names, as systemd passes one to a service.
# Here the socket is the test's own, bound and read by a small python3 reader.
load helper

# notify_reader: a datagram socket bound at $T/notify, each message it gets
# appended to $T/notes, one line per NAME=VALUE; the reader joins $HOLDERS.
notify_reader() {
	[ -x /usr/bin/python3 ] || skip "python3 not installed"
	: >"$T/notes"
	/usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a") as out:
    print("BOUND", file=out, flush=True)
    while True:
        out.write(s.recv(4096).decode("utf-8", "replace") + "\n")
        out.flush()
' "$T/notify" "$T/notes" 3>&- &
	HOLDERS="${HOLDERS:-} $!"
	wait_until grep -qx BOUND "$T/notes"
}

# start_notified ARGS...: watchq in the background with NOTIFY_SOCKET=$T/notify, stdout to
# $T/out, stderr to $T/err; no wait for readiness.
start_notified() {
	NOTIFY_SOCKET=$T/notify "$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} "$@" \
		>"$T/out" 2>"$T/err" 3>&- &
	WQ_PID=$!
}

@test "NOTIFY_SOCKET: READY=1 once the watch is armed (a mount right after it is reported), STOPPING=1 at the end" {
	need_root
	notify_reader
	mkdir "$T/a"
	# -q: no readiness line; READY=1 alone says when the watch is live.
	start_notified -q mounts "$T"
	wait_until grep -qx READY=1 "$T/notes"
	mount -t tmpfs wq-ready "$T/a"
	wait_until lines_at_least 1
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(unmarked)" = "mount mount $T/a tmpfs wq-ready" ]
	[ ! -s "$T/err" ]
	wait_until grep -qx STOPPING=1 "$T/notes"
	# One message for readiness, with the readiness line as STATUS; then one for the end.
	[ "$(sed -n 2p "$T/notes")" = READY=1 ]
	[[ "$(sed -n 3p "$T/notes")" == "STATUS=watching mounts $T (backend "*")" ]]
	[ "$(sed -n 4p "$T/notes")" = STOPPING=1 ]
	[ "$(wc -l <"$T/notes")" -eq 4 ]
}

@test "NOTIFY_SOCKET: a monitor that ends by itself (--count) says STOPPING=1 too; wait and list say nothing" {
	need_root
	notify_reader
	mkdir "$T/a" "$T/b"
	start_notified -n 1 mounts "$T"
	wait_until grep -qx READY=1 "$T/notes"
	mount -t tmpfs wq "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	wait_until grep -qx STOPPING=1 "$T/notes"
	: >"$T/notes"
	# A wait or a list is no service: its status is the answer.
	NOTIFY_SOCKET=$T/notify "$WATCHQ" -q wait --mount "$T/a"
	NOTIFY_SOCKET=$T/notify "$WATCHQ" -q -t 0.1 wait -e unmount mounts "$T/b" || [ $? -eq 2 ]
	NOTIFY_SOCKET=$T/notify "$WATCHQ" list mounts "$T" >/dev/null
	# Messages arrive in order: once systemd-notify's is read, none of watchq's is on the way.
	command -v systemd-notify >/dev/null || skip "systemd-notify not installed"
	NOTIFY_SOCKET=$T/notify systemd-notify STATUS=sentinel
	wait_until grep -qx STATUS=sentinel "$T/notes"
	[ "$(sed -n 1p "$T/notes")" = STATUS=sentinel ]
	run ! grep -E '^(READY|STOPPING)=|^STATUS=w' "$T/notes"
}

@test "NOTIFY_SOCKET that nobody listens on: one line naming it, and watchq watches on" {
	need_root
	mkdir "$T/a"
	NOTIFY_SOCKET=$T/nobody start_watchq -n 1 mounts "$T"
	mount -t tmpfs wq "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(grep -c NOTIFY_SOCKET "$T/err")" -eq 2 ]
	grep -qx "watchq: NOTIFY_SOCKET $T/nobody: No such file or directory" "$T/err"
	[ "$(unmarked)" = "mount mount $T/a tmpfs wq" ]
}
