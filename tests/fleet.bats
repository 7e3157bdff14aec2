#!/usr/bin/env bats
# Fleet logging through systemd's own pipeline, every part real: on a sender,
# systemd-journald, watchq --journal and systemd-journal-upload; on a collector,
# systemd-journal-remote. The sender is a network, UTS and mount namespace of its
# own (hostname $SENDER, tmpfs on /run and /var/log/journal: its journal is its
# own, without the kernel's log); the collector shares only its network namespace,
# where lo is the one interface, and has a hostname of its own. The two talk HTTP
# on 127.0.0.1.
load helper

JOURNALD=${JOURNALD:-/lib/systemd/systemd-journald}
UPLOAD=${UPLOAD:-/lib/systemd/systemd-journal-upload}
REMOTE=${REMOTE:-/lib/systemd/systemd-journal-remote}
SENDER=watchq-fleet-sender
COLLECTOR=watchq-fleet-collector
PORT=19532
ROOT=$BATS_TEST_DIRNAME/..

# What a test started, killed before the helper's teardown undoes its mounts; then any
# other process in the network namespace the test made (one it ran that did not end).
eval "helper_$(declare -f teardown)"
teardown() {
	local p ns

	for p in ${FLEET_PIDS:-} ${WQ_PID:-}; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ -n "${FLEET_NET:-}" ] && [ "$FLEET_NET" != "$(readlink /proc/self/ns/net)" ]; then
		for ns in /proc/[0-9]*/ns/net; do
			[ "$(readlink "$ns" 2>/dev/null)" = "$FLEET_NET" ] || continue
			p=${ns#/proc/} p=${p%%/*}
			echo "# teardown: killed pid $p, left in the test's network namespace" >&3
			kill -KILL "$p" 2>/dev/null || true
		done
	fi
	helper_teardown
}

# need_fleet: what the test runs is installed and may run here, or the test is skipped with the reason.
need_fleet() {
	local f

	need_root
	for f in "$JOURNALD" "$UPLOAD" "$REMOTE"; do
		[ -x "$f" ] || skip "$f not installed (Debian: systemd, systemd-journal-remote; make deps)"
	done
	for f in journalctl jq ip ss nsenter; do
		command -v "$f" >/dev/null || skip "$f not installed (make deps)"
	done
	unshare -m -u -n true 2>/dev/null || skip "cannot create network and UTS namespaces here"
}

# start_fleet: the sender's namespaces (held by $HOLDER), its journald and watchq --journal
# mounts $T/w, the collector, and journal-upload from the sender to the collector.
start_fleet() {
	need_fleet
	mkdir "$T/w" "$T/remote"
	printf '[Journal]\nReadKMsg=no\n' >"$T/journald.conf"
	unshare -m -u -n --propagation private sh -c '
		hostname "$0" && ip link set lo up &&
		mount -t tmpfs wq-fleet-run /run &&
		{ [ ! -d /var/log/journal ] || mount -t tmpfs wq-fleet-log /var/log/journal; } &&
		{ [ ! -f /etc/systemd/journald.conf ] || mount --bind "$1/journald.conf" /etc/systemd/journald.conf; } &&
		touch "$1/sender" && exec sleep 100000' "$SENDER" "$T" </dev/null >"$T/sender.log" 2>&1 3>&- &
	HOLDER=$!
	FLEET_PIDS="$HOLDER"
	wait_until up_or_gone sender_there "$HOLDER"
	[ -e "$T/sender" ] || { cat "$T/sender.log"; return 1; }
	# Only now is the holder in the new namespace.
	FLEET_NET=$(readlink "/proc/$HOLDER/ns/net")
	[ "$FLEET_NET" != "$(readlink /proc/self/ns/net)" ]
	[ "$(in_sender hostname)" = "$SENDER" ]
	[ "$(hostname)" != "$SENDER" ]

	nsenter -t "$HOLDER" -m -u -n "$JOURNALD" </dev/null >"$T/journald.log" 2>&1 3>&- &
	FLEET_PIDS="$FLEET_PIDS $!"
	wait_until up_or_gone sender_journald_up "$!" || true
	sender_journald_up || skip "systemd-journald did not start here: $(cat "$T/journald.log")"

	nsenter -t "$HOLDER" -m -u -n "$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} --journal mounts "$T/w" \
		</dev/null 2>"$T/err" 3>&- &
	WQ_PID=$!
	wait_until ready_or_dead
	grep -q '^watchq: watching' "$T/err" || { cat "$T/err"; return 1; }

	start_collector
	start_upload
}

# in_sender CMD...: CMD in the sender's namespaces. (A process to run in the background is
# started with nsenter itself, which execs it: $! is then its pid, for teardown to kill.)
in_sender() {
	nsenter -t "$HOLDER" -m -u -n "$@"
}

# up_or_gone CHECK PID: the command CHECK succeeds, or PID has exited.
up_or_gone() {
	"$1" || ! kill -0 "$2" 2>/dev/null
}

sender_there() {
	[ -e "$T/sender" ]
}

sender_journald_up() {
	in_sender test -S /run/systemd/journal/socket && in_sender timeout 10 journalctl --sync 2>/dev/null
}

# start_collector: systemd-journal-remote on 127.0.0.1:$PORT, writing to $T/remote, once it
# listens; its pid in $COLLECTOR_PID.
start_collector() {
	nsenter -t "$HOLDER" -n unshare -u sh -c 'hostname "$0" && exec "$1" --listen-http="127.0.0.1:$2" \
		--output="$3/remote/"' "$COLLECTOR" "$REMOTE" "$PORT" "$T" </dev/null >>"$T/remote.log" 2>&1 3>&- &
	COLLECTOR_PID=$!
	FLEET_PIDS="$FLEET_PIDS $COLLECTOR_PID"
	wait_until up_or_gone collector_listens "$COLLECTOR_PID"
	collector_listens || { cat "$T/remote.log"; return 1; }
}

collector_listens() {
	[ -n "$(nsenter -t "$HOLDER" -n ss -Hltn "src 127.0.0.1:$PORT")" ]
}

# stop_collector: SIGTERM, as systemctl stop sends it; it must end cleanly.
stop_collector() {
	kill -TERM "$COLLECTOR_PID"
	wait "$COLLECTOR_PID"
	if collector_listens; then return 1; fi
}

# start_upload: systemd-journal-upload as its packaged unit runs it (--save-state), the
# state file in $T; its pid in $UPLOAD_PID. It sends from the state file's cursor, or
# from the start of the sender's journal.
start_upload() {
	nsenter -t "$HOLDER" -m -u -n env SYSTEMD_LOG_TARGET=console "$UPLOAD" --url="http://127.0.0.1:$PORT" \
		--save-state="$T/upload.state" </dev/null >>"$T/upload.log" 2>&1 3>&- &
	UPLOAD_PID=$!
	FLEET_PIDS="$FLEET_PIDS $UPLOAD_PID"
}

# on_sender MATCH...: the sender's entries that match, as JSON lines, once its journald wrote all it got.
on_sender() {
	in_sender journalctl --sync && in_sender journalctl -q --no-pager -o json "$@"
}

# on_collector MATCH...: the entries journal-remote wrote that match, as JSON lines.
on_collector() {
	journalctl --directory="$T/remote" -q --no-pager -o json "$@"
}

# sent N: the sender's journal holds at least N entries of the watch of $T/w (watchq
# saw N changes: a change made before it saw the last could be read with it).
sent() {
	[ "$(on_sender WATCHQ_WATCH="$T/w" | wc -l)" -ge "$1" ]
}

# arrived N: the collector holds at least N entries of the watch of $T/w.
arrived() {
	[ "$(on_collector WATCHQ_WATCH="$T/w" | wc -l)" -ge "$1" ]
}

# all_arrived: each entry of the sender's journal is on the collector too.
all_arrived() {
	on_sender | jq -c -S 'del(.__CURSOR)' | LC_ALL=C sort -u >"$T/want"
	on_collector | jq -c -S 'del(.__CURSOR)' | LC_ALL=C sort -u >"$T/have"
	[ -z "$(LC_ALL=C comm -23 "$T/want" "$T/have")" ]
}

# gone PID: PID has exited.
gone() {
	if kill -0 "$1" 2>/dev/null; then return 1; fi
}

# acknowledged: journal-upload's state file names an entry at or after every entry of
# the watch on the sender: the collector took all of them. The file says "do not
# parse"; the test reads it only to know when to stop the collector between two uploads.
acknowledged() {
	local cursor

	cursor=$(saved_cursor 2>/dev/null)
	[ -n "$cursor" ] &&
		[ -z "$(in_sender journalctl -q --no-pager -o cat --after-cursor="$cursor" WATCHQ_WATCH="$T/w")" ]
}

# same_entries [CURSOR]: the collector holds each entry of the sender's journal (journald's
# own, then watchq's), every field (trusted ones such as _HOSTNAME included) as the sender
# has it but the cursor, which names the file an entry is in; each once, but the entry at
# CURSOR twice.
same_entries() {
	on_sender >"$T/sent"
	on_collector >"$T/got"
	: >"$T/again"
	if [ -n "${1:-}" ]; then
		in_sender journalctl -q --no-pager -o json --cursor="$1" | head -n 1 >"$T/again"
	fi
	jq -e -n --slurpfile s "$T/sent" --slurpfile g "$T/got" --slurpfile a "$T/again" '
		def plain: map(del(.__CURSOR));
		($s | plain) as $s | ($g | plain) as $g | ($a | plain) as $a |
		($g | unique) == ($s | unique) and
		($g | group_by(.) | map(select(length > 1))) == ($a | map([., .]))' >/dev/null ||
		{ echo "sent:"; cat "$T/sent"; echo "got:"; cat "$T/got"; echo "again:"; cat "$T/again"; return 1; }
}

# events: "EVENT HOSTNAME" for each entry of the watch on the collector, one line for an
# entry that arrived twice (two in a row: the copy has the same timestamps).
events() {
	on_collector WATCHQ_WATCH="$T/w" | jq -c -S 'del(.__CURSOR)' | uniq |
		jq -r '[.WATCHQ_EVENT, ._HOSTNAME] | join(" ")'
}

# saved_cursor: the cursor journal-upload's state file names.
saved_cursor() {
	sed -n 's/^LAST_CURSOR=//p' "$T/upload.state"
}

@test "fleet: each event reaches the collector with its MESSAGE_ID, WATCHQ_* fields and the sender's _HOSTNAME" {
	start_fleet
	p=$(printf '%s/w/new\nline c1\x85 end' "$T")
	mkdir "$p"
	in_sender mount -t tmpfs wq-fleet "$p"
	wait_until sent 1
	in_sender mount -o remount,ro "$p"
	wait_until sent 2
	in_sender umount "$p"
	wait_until sent 3
	wait_until all_arrived
	same_entries
	[ "$(events)" = "$(printf "%s $SENDER\n" mount readonly unmount)" ]
	# Each carries the MESSAGE_ID the man page lists for its kind of event.
	message_ids >"$T/ids"
	on_collector WATCHQ_WATCH="$T/w" | jq -r '[.WATCHQ_SOURCE, .WATCHQ_EVENT, .MESSAGE_ID] | join(" ")' >"$T/kinds"
	[ "$(wc -l <"$T/kinds")" -eq 3 ]
	while read -r line; do
		grep -qxF -- "$line" "$T/ids" || { echo "not in the man page: $line"; false; }
	done <"$T/kinds"
	# A path that is not UTF-8 arrives as its exact bytes; MESSAGE as watchq's escaped line.
	bytes=$(printf '%s' "$p" | od -An -v -tu1 | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
	on_collector WATCHQ_WATCH="$T/w" | jq -e -s --argjson b "[$bytes]" 'map(.WATCHQ_PATH == $b) == [true, true, true]'
	on_collector WATCHQ_WATCH="$T/w" WATCHQ_EVENT=unmount | jq -e --arg t "$T" \
		'.MESSAGE | startswith("mount unmount \($t)/w/new\\x0aline\\x20c1\\x85\\x20end tmpfs wq-fleet ")'
	# The collector's queries, as examples/README.md shows them.
	[ "$(journalctl --directory="$T/remote" -q --no-pager -o cat -t watchq _HOSTNAME="$SENDER" \
		WATCHQ_EVENT=readonly | wc -l)" -eq 1 ]
	[ -z "$(journalctl --directory="$T/remote" -q --no-pager -o cat -t watchq _HOSTNAME="$COLLECTOR")" ]
	# journal-remote names the file after the address that sent it.
	[ -e "$T/remote/remote-127.0.0.1.journal" ]
}

@test "fleet: collector down: journal-upload fails, keeps its cursor; restarted, sends the rest and its last entry again" {
	start_fleet
	mkdir "$T/w/a" "$T/w/b"
	in_sender mount -t tmpfs wq-fleet "$T/w/a"
	wait_until arrived 1
	wait_until acknowledged
	cp "$T/upload.state" "$T/state.before"
	taken=$(saved_cursor)
	stop_collector

	# While it is down: the sender's journal gets the events, journal-upload cannot send them.
	in_sender mount -o remount,ro "$T/w/a"
	wait_until sent 2
	in_sender umount "$T/w/a"
	wait_until sent 3
	# The first upload the collector does not take ends journal-upload with a failure, its
	# state file still at the last entry the collector took.
	wait_until gone "$UPLOAD_PID"
	status=0
	wait "$UPLOAD_PID" || status=$?
	[ "$status" -eq 1 ]
	grep -q "^Upload to http://127.0.0.1:$PORT/upload failed: .*Couldn't connect to server" "$T/upload.log"
	cmp "$T/state.before" "$T/upload.state"
	[ "$(events)" = "mount $SENDER" ]

	# Started again (the drop-in in examples/ has systemd do it), journal-upload sends what
	# was made meanwhile, in order. It starts at the entry its state file names, not after
	# it: that entry, the last the collector took, arrives a second time, the same to the
	# field. Nothing but watchq wrote to the sender's journal after journald started: it is
	# the mount's.
	start_collector
	start_upload
	wait_until all_arrived
	same_entries "$taken"
	[ "$(jq -r .MESSAGE "$T/again")" = "$(on_collector WATCHQ_WATCH="$T/w" WATCHQ_EVENT=mount | jq -r .MESSAGE | uniq)" ]
	[ "$(events)" = "$(printf "%s $SENDER\n" mount readonly unmount)" ]
	# And a change after that arrives as it happens, once.
	in_sender mount -t tmpfs wq-fleet "$T/w/b"
	wait_until sent 4
	wait_until all_arrived
	same_entries "$taken"
	[ "$(events | tail -n 1)" = "mount $SENDER" ]
}

@test "examples/: the journal-upload drop-in verifies beside the packaged unit" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
	unit=/lib/systemd/system/systemd-journal-upload.service
	[ -f "$unit" ] || skip "$unit not installed (Debian: systemd-journal-remote; make deps)"
	mkdir -p "$T/units/systemd-journal-upload.service.d"
	cp "$unit" "$T/units/"
	cp "$ROOT/examples/systemd-journal-upload.service.d/fleet.conf" "$T/units/systemd-journal-upload.service.d/"
	run systemd-analyze verify "$T/units/systemd-journal-upload.service"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# What the drop-in is for: systemd keeps restarting journal-upload while the collector is down.
	grep -qx 'StartLimitIntervalSec=0' "$T/units/systemd-journal-upload.service.d/fleet.conf"
	grep -qx 'Restart=on-failure' "$T/units/systemd-journal-upload.service.d/fleet.conf"
}
