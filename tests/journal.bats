#!/usr/bin/env bats
# watchq --journal against a real systemd-journald, started by this file as a
# plain process over a tmpfs on /run (and /var/log/journal) in the suite's mount
# namespace.
load helper

JOURNALD=${JOURNALD:-/lib/systemd/systemd-journald}
SOCKET=/run/systemd/journal/socket
ROOT=$BATS_TEST_DIRNAME/..

setup_file() {
	build_burst
}

teardown_file() {
	local pid

	if pid=$(cat "$BATS_FILE_TMPDIR/journald.pid" 2>/dev/null); then
		kill "$pid" 2>/dev/null || true
		wait_until journald_gone "$pid" || true
	fi
	if [ -e "$BATS_FILE_TMPDIR/log-mounted" ]; then
		umount -l /var/log/journal
	fi
	if [ -e "$BATS_FILE_TMPDIR/run-mounted" ]; then
		umount -l /run
	fi
}

journald_gone() {
	if kill -0 "$1" 2>/dev/null; then return 1; fi
}

# journald_up: it listens, and has answered a request to write out what it got.
journald_up() {
	[ -S "$SOCKET" ] && timeout 10 journalctl --sync 2>/dev/null
}

# need_journald: a systemd-journald of this file's own is running (started
# again if a test stopped it), or the test is skipped with the reason.
need_journald() {
	need_root
	[ -x "$JOURNALD" ] || skip "systemd-journald not installed ($JOURNALD)"
	command -v journalctl >/dev/null || skip "journalctl not installed"
	command -v jq >/dev/null || skip "jq not installed"
	if [ ! -e "$BATS_FILE_TMPDIR/run-mounted" ]; then
		mount -t tmpfs watchq-run /run || skip "cannot mount a tmpfs on /run"
		touch "$BATS_FILE_TMPDIR/run-mounted"
		# journald writes there once asked to flush; keep the host's journal out of reach.
		if [ -d /var/log/journal ]; then
			mount -t tmpfs watchq-journal /var/log/journal
			touch "$BATS_FILE_TMPDIR/log-mounted"
		fi
	fi
	[ ! -e "$BATS_FILE_TMPDIR/journald.failed" ] || skip "systemd-journald did not start here: $(cat "$BATS_FILE_TMPDIR/journald.log")"
	if ! kill -0 "$(cat "$BATS_FILE_TMPDIR/journald.pid" 2>/dev/null)" 2>/dev/null; then
		"$JOURNALD" >"$BATS_FILE_TMPDIR/journald.log" 2>&1 3>&- &
		echo $! >"$BATS_FILE_TMPDIR/journald.pid"
		wait_until journald_up_or_gone "$(cat "$BATS_FILE_TMPDIR/journald.pid")" || true
		if ! journald_up; then
			touch "$BATS_FILE_TMPDIR/journald.failed"
			skip "systemd-journald did not start here: $(cat "$BATS_FILE_TMPDIR/journald.log")"
		fi
	fi
}

# journald_up_or_gone PID: it listens, or it has exited (a VM without what it needs).
journald_up_or_gone() {
	journald_up || journald_gone "$1"
}

# stop_journald: end it as a crash would, its socket left behind.
stop_journald() {
	local pid

	pid=$(cat "$BATS_FILE_TMPDIR/journald.pid")
	kill -KILL "$pid"
	wait_until journald_gone "$pid"
}

# entries MATCH...: the entries that match, as JSON lines, once journald has written out all it got.
entries() {
	journalctl --sync && journalctl -q --no-pager -o json "$@"
}

# start_more NAME ARGS...: another watchq in the background, stdout to $T/NAME, ready; its pid joins $MORE.
start_more() {
	local name=$1

	shift
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} "$@" >"$T/$name" 2>"$T/$name.err" 3>&- &
	MORE="${MORE:-} $!"
	wait_until grep -q '^watchq: watching' "$T/$name.err"
}

# all_saw N FILE...: each FILE holds N lines, and the journal N entries of the watch
# of $T: every watchq of the test has seen N changes (a change made before one has
# is read with the one before it, and may merge).
all_saw() {
	local n=$1 f

	shift
	for f in "$@"; do
		lines_at_least "$n" "$f" || return 1
	done
	[ "$(entries WATCHQ_WATCH="$T" | wc -l)" -ge "$n" ]
}

# finish_more: wait for each of $MORE; each must exit 0.
finish_more() {
	local pid

	for pid in $MORE; do
		wait "$pid"
	done
	MORE=
}

@test "--journal: an entry per event, MESSAGE the text line, a WATCHQ_ field per JSON field" {
	need_journald
	mkdir "$T/a" "$T/b"
	start_more json --json -n 4 mounts "$T"
	start_more journal --journal -n 4 mounts "$T"
	[ ! -s "$T/journal" ]
	start_watchq -n 4 mounts "$T"
	# Changes by processes that stay, so that each watchq can name them alike.
	hold wq-mounter mount wqdev "$T/a"
	wait_until all_saw 1 "$T/out" "$T/json"
	mount -o remount,ro "$T/a"
	wait_until all_saw 2 "$T/out" "$T/json"
	hold wq-mover move "$T/a" "$T/b"
	wait_until all_saw 3 "$T/out" "$T/json"
	hold wq-unmounter umount "$T/b"
	unmounter=$HELD
	finish_watchq
	finish_more
	[ "$WQ_STATUS" -eq 0 ]
	[ ! -s "$T/journal" ]
	entries WATCHQ_WATCH="$T" >"$T/entries"
	[ "$(wc -l <"$T/entries")" -eq 4 ]
	# MESSAGE: what the text output prints, line for line.
	[ "$(jq -r .MESSAGE "$T/entries")" = "$(cat "$T/out")" ]
	jq -e -s 'all(.PRIORITY == (if .WATCHQ_EVENT == "readonly" then "4" else "6" end) and
		.SYSLOG_IDENTIFIER == "watchq" and
		(.WATCHQ_TIME | test("^20[0-9-]{8}T[0-9:]{8}\\.[0-9]{6}Z$")))' "$T/entries"
	# Every other field: the JSON object's, name in upper case after WATCHQ_, value as JSON prints it.
	jq -e -n --slurpfile e "$T/entries" --slurpfile j "$T/json" '
		($j | length) == 4 and
		([range(4)] | all(. as $i |
			($j[$i] | del(.time, .time_us) | with_entries(select(.value != null)) |
				with_entries(.key |= "WATCHQ_" + ascii_upcase) | map_values(tostring)) ==
			($e[$i] | with_entries(select(.key | startswith("WATCHQ_"))) | del(.WATCHQ_TIME, .WATCHQ_TIME_US))))'
	[ "$(journalctl -q --no-pager -o cat WATCHQ_WATCH="$T" WATCHQ_EVENT=unmount)" = "$(sed -n 4p "$T/out")" ]
	# Who made a change: WATCHQ_PID, _COMM and _UID where known (fanotify), for a remount only
	# with the process capture (mount(8) made it).
	if capture_used; then
		jq -e -s 'map(select(.WATCHQ_EVENT == "readonly"))[0] | .WATCHQ_COMM == "mount" and .WATCHQ_UID == "0"' "$T/entries"
	else
		jq -e -s 'map(select(.WATCHQ_EVENT == "readonly"))[0] | has("WATCHQ_PID") or has("WATCHQ_COMM") | not' "$T/entries"
	fi
	# The root of the mount inside its filesystem: the whole of it.
	jq -e -s 'all(.WATCHQ_ROOT == "/")' "$T/entries"
	if [ "$(backend_used)" = fanotify ]; then
		jq -e -s --arg pid "$unmounter" 'map(select(.WATCHQ_EVENT == "unmount"))[0] |
			.WATCHQ_PID == $pid and .WATCHQ_COMM == "wq-unmounter" and .WATCHQ_UID == "0"' "$T/entries"
	fi
}

@test "--journal: an unknown value (JSON's null) is no field" {
	need_journald
	command -v keyctl >/dev/null || skip "keyutils not installed"
	# A key's own update: no keyring (null), on either key backend.
	timeout 20 keyctl session - bash -c '
		id=$(keyctl add user watchq-journal-null x @s)
		"$1" -j -n 1 --interval 0.1 keys "$id" >"$2/json" 2>"$2/json.err" 3>&- &
		"$1" --journal -n 1 --interval 0.1 keys "$id" 2>"$2/journal.err" 3>&- &
		until grep -q "^watchq: watching" "$2/json.err" && grep -q "^watchq: watching" "$2/journal.err"; do
			sleep 0.05
		done
		keyctl update "$id" "a new size: polling sees it"
		wait' _ "$WATCHQ" "$T"
	jq -e '.event == "updated" and .keyring == null' "$T/json"
	entries WATCHQ_KEY="$(jq .key "$T/json")" >"$T/entries"
	[ "$(wc -l <"$T/entries")" -eq 1 ]
	jq -e 'has("WATCHQ_KEYRING") | not' "$T/entries"
	jq -e '.WATCHQ_EVENT == "updated" and .WATCHQ_DESCRIPTION == "watchq-journal-null"' "$T/entries"
}

@test "--journal: list sb and keys: present entries at priority 6, fields as in JSON" {
	need_journald
	command -v keyctl >/dev/null || skip "keyutils not installed"
	mkdir "$T/ro"
	mount -t tmpfs -o ro,size=8m wq-jro "$T/ro"
	"$WATCHQ" list --journal sb "$T/ro"
	entries WATCHQ_WATCH="$T/ro" >"$T/entries"
	[ "$(jq -r '[.WATCHQ_EVENT, .WATCHQ_STATE, .WATCHQ_READONLY, .WATCHQ_SIZE, .PRIORITY] | join(" ")' \
	    "$T/entries")" = "present ro true $((8 << 20)) 6" ]
	[ "$(jq -r .MESSAGE "$T/entries")" = "sb present $T/ro tmpfs wq-jro ro avail=$((8 << 20)) size=$((8 << 20))" ]
	timeout 20 keyctl session - bash -c 'r=$(keyctl newring wq-jring @s) &&
		keyctl add user wq-jkey x "$r" >/dev/null && "$1" list --journal keys "$r" && echo "$r" >"$2/ring"' \
		_ "$WATCHQ" "$T"
	entries WATCHQ_WATCH="$(cat "$T/ring")" >"$T/entries"
	[ "$(jq -r '[.WATCHQ_EVENT, .WATCHQ_KEYRING // "-", .WATCHQ_TYPE, .WATCHQ_DESCRIPTION, .PRIORITY] | join(" ")' \
	    "$T/entries")" = "$(printf '%s\n' 'present - keyring wq-jring 6' "present $(cat "$T/ring") user wq-jkey 6")" ]
}

@test "--journal: priorities: sb error 3, read-only 4, back to writable 5, removal 5" {
	need_journald
	make_ext4 "" errors=continue
	[ -e "/sys/fs/ext4/$LOOPNAME/trigger_fs_error" ] || skip "no trigger_fs_error in this kernel"
	start_watchq --journal sb "$T/fs"
	[[ "$(backend_used)" == fanotify,* ]] || skip "no fanotify error events here: $(cat "$T/err")"
	echo watchq-test >"/sys/fs/ext4/$LOOPNAME/trigger_fs_error"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T/fs" | wc -l)" -ge 1 ]'
	mount -o remount,ro "$T/fs"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T/fs" | wc -l)" -ge 2 ]'
	mount -o remount,rw "$T/fs"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T/fs" | wc -l)" -ge 3 ]'
	umount "$T/fs"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	entries WATCHQ_WATCH="$T/fs" >"$T/entries"
	[ "$(jq -r '[.WATCHQ_EVENT, .WATCHQ_STATE // "-", .PRIORITY] | join(" ")' "$T/entries")" = "$(printf '%s\n' \
		'error - 3' 'readonly ro 4' 'readonly rw 5' 'removal - 5')" ]
	# Each flip's entry names the remount behind it where the capture loaded, as its line does.
	[[ "$(backend_used)" != *,bpf:* ]] || jq -e -s 'map(select(.WATCHQ_EVENT == "readonly")) |
		all(. as $e | .WATCHQ_COMM == "mount" and .WATCHQ_UID == "0" and
		(.MESSAGE | endswith(" pid=\($e.WATCHQ_PID) uid=0 comm=mount")))' "$T/entries" ||
		{ cat "$T/entries"; false; }
	[ "$(jq -r 'select(.WATCHQ_EVENT == "error") | .MESSAGE' "$T/entries")" = "sb error $T/fs ext4 $LOOPDEV EUCLEAN count=1" ]
}

@test "--journal: hostile paths: MESSAGE one escaped line, WATCHQ_PATH the exact bytes" {
	need_journald
	p=$(printf '%s/new\nline "quote" back\\slash c1\x85\xc2\x85 end' "$T")
	mkdir "$p"
	start_more text -n 2 mounts "$T"
	start_watchq --journal -n 2 mounts "$T"
	hold wq-mounter mount 'dev"\' "$p"
	wait_until all_saw 1 "$T/text"
	hold wq-unmounter umount "$p"
	finish_watchq
	finish_more
	[ "$WQ_STATUS" -eq 0 ]
	entries WATCHQ_WATCH="$T" >"$T/entries"
	# MESSAGE, byte for byte: the text lines, each event on one line.
	[ "$(wc -l <"$T/text")" -eq 2 ]
	journalctl -q --no-pager -o cat WATCHQ_WATCH="$T" | cmp - "$T/text"
	# Not UTF-8, WATCHQ_PATH comes as an array of bytes in journalctl's JSON, and raw with -o cat.
	bytes=$(printf '%s' "$p" | od -An -v -tu1 | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
	jq -e -s --argjson b "[$bytes]" 'map(.WATCHQ_PATH == $b) == [true, true]' "$T/entries"
	journalctl -q --no-pager -o cat --output-fields=WATCHQ_PATH WATCHQ_WATCH="$T" WATCHQ_EVENT=unmount >"$T/path"
	printf '%s\n' "$p" | cmp - "$T/path"
	jq -e -s 'map(.WATCHQ_DEVICE) == ["dev\"\\", "dev\"\\"]' "$T/entries"
}

@test "--journal without journald: one line, exit 69, before any watch" {
	need_root
	run --separate-stderr unshare -m sh -c 'mount -t tmpfs wq /run && exec "$0" --journal mounts /' "$WATCHQ"
	[ "$status" -eq 69 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$stderr" = "watchq: --journal: no journald listens on $SOCKET: No such file or directory" ]
	[ -z "$output" ]
}

@test "--journal: journald gone while watching: exit 1 with one line, socket left or removed" {
	need_journald
	mkdir "$T/a"
	start_watchq --journal mounts "$T"
	stop_journald
	mount -t tmpfs wq "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 1 ]
	[ "$(cat "$T/err")" = "$(printf '%s\n' "watchq: watching mounts $T (backend $(backend_used)$(capture_label))" \
		"watchq: journald ($SOCKET): Connection refused")" ]
	# Without its socket, libsystemd drops an entry without a word; watchq says so.
	need_journald
	start_watchq --journal mounts "$T"
	stop_journald
	rm "$SOCKET"
	umount "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 1 ]
	[ "$(tail -n 1 "$T/err")" = "watchq: journald ($SOCKET): No such file or directory" ]
}

@test "--journal with --json, --format or --output: a usage error" {
	for opts in "--journal --json" "-j --journal" "--format=%e --journal" "--journal -o $T/x"; do
		run --separate-stderr "$WATCHQ" $opts mounts /
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: --journal cannot be combined with --json, --format, --keyctl or --output" ]
	done
	[ ! -e "$T/x" ]
}

@test "--journal: journalctl -p warning finds a mount turned read-only, not the mount nor its way back" {
	need_journald
	mkdir "$T/a"
	start_watchq --journal -n 3 mounts "$T"
	mount -t tmpfs wq "$T/a"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T" | wc -l)" -ge 1 ]'
	mount -o remount,ro "$T/a"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T" | wc -l)" -ge 2 ]'
	mount -o remount,rw "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	entries WATCHQ_WATCH="$T" >"$T/entries"
	[ "$(jq -r '[.WATCHQ_EVENT, .PRIORITY] | join(" ")' "$T/entries")" = "$(printf '%s\n' \
		'mount 6' 'readonly 4' 'writable 6')" ]
	journalctl --sync
	journalctl -q --no-pager -o cat -t watchq -p warning WATCHQ_WATCH="$T" >"$T/warnings"
	[ "$(unmarked "$T/warnings")" = "mount readonly $T/a ro (was rw)" ]
	# The flip's entry carries who made it as the mount's does: the fields its line shows.
	jq -e -s --arg a "$T/a" 'map(select(.WATCHQ_EVENT == "readonly")) | length == 1 and all(
		if has("WATCHQ_PID") then .WATCHQ_UID == "0" and .WATCHQ_COMM == "mount" and
			.MESSAGE == "mount readonly \($a) ro (was rw) pid=\(.WATCHQ_PID) uid=0 comm=mount"
		else (has("WATCHQ_UID") or has("WATCHQ_COMM")) == false and
			.MESSAGE == "mount readonly \($a) ro (was rw) pid=- uid=- comm=-" end)' \
		"$T/entries" || { cat "$T/entries"; false; }
	# Without the capture, nobody.
	capture_used || jq -e -s 'all(select(.WATCHQ_EVENT != "mount"); has("WATCHQ_PID") == false)' \
		"$T/entries"
}

@test "--journal: each entry has the MESSAGE_ID the man page lists for its kind of event" {
	need_journald
	message_ids >"$T/ids"
	[ "$(wc -l <"$T/ids")" -ge 27 ]
	mkdir "$T/a" "$T/b"
	start_watchq --journal -n 3 mounts "$T"
	mount -t tmpfs wq "$T/a"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T" | wc -l)" -ge 1 ]'
	mount --move "$T/a" "$T/b"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T" | wc -l)" -ge 2 ]'
	umount "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	mount -t tmpfs -o size=1M wq "$T/a"
	"$WATCHQ" -q --journal -n 1 --space-below 1E sb "$T/a"
	entries WATCHQ_WATCH="$T" >"$T/entries"
	entries WATCHQ_WATCH="$T/a" >>"$T/entries"
	jq -r '[.WATCHQ_SOURCE, .WATCHQ_EVENT, .MESSAGE_ID] | join(" ")' "$T/entries" >"$T/got"
	[ "$(cut -d' ' -f1,2 "$T/got" | tr '\n' ,)" = "mount mount,mount move,mount unmount,sb lowspace," ]
	while read -r line; do
		grep -qxF -- "$line" "$T/ids" || { echo "not in the man page: $line"; false; }
	done <"$T/got"
	[ "$(journalctl -q --no-pager -o cat MESSAGE_ID="$(awk '$2 == "move" { print $3 }' "$T/ids")" \
		WATCHQ_WATCH="$T" | wc -l)" -eq 1 ]
}

@test "MESSAGE_IDs: the man page, watchq.catalog and the writer's table agree, each id once" {
	message_ids >"$T/man"
	# The rows of event_names[] with a MESSAGE_ID: "type name id".
	awk 'match($0, /\.name = "[a-z_]*", \.type = EV_[A-Z]*/) {
		split(substr($0, RSTART, RLENGTH), a, "\""); t = $0
		sub(/.*\.type = EV_/, "", t); sub(/[^A-Z].*/, "", t); name = a[2] }
	     match($0, /\.message_id = "[0-9a-f]*"/) {
		split(substr($0, RSTART, RLENGTH), b, "\""); print tolower(t), name, b[2] }' \
		"$ROOT/src/model/event.c" | sort >"$T/src"
	[ "$(wc -l <"$T/man")" -ge 27 ]
	sort "$T/man" | diff "$T/src" -
	[ -z "$(cut -d' ' -f3 "$T/man" | sort | uniq -d)" ]
	# One catalog entry per id, each with a subject.
	sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p' "$ROOT/watchq.catalog" | sort >"$T/catalog"
	[ "$(cut -d' ' -f3 "$T/man" | sort)" = "$(cat "$T/catalog")" ]
	[ "$(grep -c '^Subject: ' "$ROOT/watchq.catalog")" -eq "$(wc -l <"$T/catalog")" ]
}

@test "--journal: the installed catalog: journalctl --update-catalog, then journalctl -x explains an entry" {
	need_journald
	[ -d /var/lib/systemd/catalog ] || skip "no /var/lib/systemd/catalog to mount the test's database over"
	cd "$ROOT"
	[ -w . ] || skip "source tree is read-only here"
	make -s install DESTDIR="$T/root" PREFIX=/usr
	cmp watchq.catalog "$T/root/usr/lib/systemd/catalog/watchq.catalog"
	journalctl --root="$T/root" --update-catalog
	[ -s "$T/root/var/lib/systemd/catalog/database" ]
	mkdir "$T/a"
	start_watchq --journal -n 2 mounts "$T"
	mount -t tmpfs wq "$T/a"
	wait_until eval '[ "$(entries WATCHQ_WATCH="$T" | wc -l)" -ge 1 ]'
	mount -o remount,ro "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	journalctl --sync
	# journalctl -x reads the database at its fixed path: the test's, in a mount namespace of its
	# own. Under LC_ALL=C, catalog lines start with "-- ".
	run --separate-stderr unshare -m --propagation private sh -c '
		mount --bind "$0/var/lib/systemd/catalog" /var/lib/systemd/catalog &&
		LC_ALL=C journalctl -x -q --no-pager -o short WATCHQ_WATCH="$1" WATCHQ_EVENT=readonly' "$T/root" "$T"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ " watchq["[0-9]+"]: mount readonly $T/a ro (was rw) "(pid=- uid=- comm=-|pid=[0-9]+ uid=0 comm=mount)$ ]]
	[ "${lines[1]}" = "-- Subject: Mount $T/a became read-only" ] || { echo "$output"; false; }
	[[ "$output" == *"-- Defined-By: watchq"* ]]
	[[ "$output" == *"-- Documentation: man:watchq(1)"* ]]
	[[ "$output" == *"-- The mount at $T/a became read-only, through the mount itself"* ]]
}
