#!/usr/bin/env bats
# watchq keys: key and keyring events from real keyctl commands, in a fresh
# session keyring. The backend is the notification pipe where the kernel has
# it (the VM), else the polled fallback (this host).
load helper

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/watchq.XXXXXX")
	WQ_PID=
	command -v keyctl >/dev/null || skip "keyctl (keyutils) missing"
	# Our own session keyring, for this test shell and what it starts.
	keyctl new_session >/dev/null 2>&1 || skip "cannot join a new session keyring here"
	WATCHQ_BACKEND=
	KW_PID=
}

# kwatch ARGS...: start watchq polling fast enough for tests.
kwatch() {
	start_watchq --interval 0.05 "$@"
}

setup_file() {
	cc -o "$BATS_FILE_TMPDIR/keyburst" "$BATS_TEST_DIRNAME/keyburst.c" -lkeyutils || true
}

# keyburst KEYRING N PREFIX: add N user keys at once (tests/keyburst.c, built once per file).
keyburst() {
	[ -x "$BATS_FILE_TMPDIR/keyburst" ] || skip "cannot build tests/keyburst.c"
	"$BATS_FILE_TMPDIR/keyburst" "$@"
}

# keyctl_watch KEY FILE: keyctl watch KEY in the background ($KW_PID, ended by teardown), output to FILE.
keyctl_watch() {
	keyctl watch "$1" >"$2" 2>&1 3>&- &
	KW_PID="$KW_PID $!"
}

# keyctl_watch_ready KEY FILE PATTERN CMD...: keyctl watch KEY into FILE, and
# return once it is watching: it has no readiness line, so CMD (which makes a
# record of KEY) runs until FILE holds a line matching PATTERN. KW_SKIP: the
# lines of FILE by then, which a test leaves out.
keyctl_watch_ready() {
	local key=$1 file=$2 pattern=$3 i
	shift 3
	keyctl_watch "$key" "$file"
	for i in $(seq 60); do
		"$@" >/dev/null
		if WAIT_LIMIT=1 wait_until grep -q -- "$pattern" "$file" 2>/dev/null; then
			KW_SKIP=$(wc -l <"$file")
			return 0
		fi
	done
	echo "keyctl watch $key reported none of $i records" >&2
	return 1
}

# need_queue_kernel: skip unless the kernel has the notification queue (keyctl watch needs it too).
need_queue_kernel() {
	local st=0
	"$WATCHQ" --backend=watch-queue -qq -t 0 keys @s >/dev/null 2>&1 || st=$?
	[ "$st" -ne 69 ] || skip "needs the kernel notification queue (runs in make vm-check)"
}

# kw_probe KEYRING: link a new key there (a record for keyctl_watch_ready).
kw_probe() {
	KW_PROBES=$((${KW_PROBES:-0} + 1))
	keyctl add user "kw-probe-$KW_PROBES" v "$1"
}

# kc_start FILE ARGS...: watchq --keyctl ARGS in the background (its pid in $KW_PID, ended by
# teardown), lines to FILE, stderr to FILE.err; return once it is watching.
kc_start() {
	local file=$1
	shift
	"$WATCHQ" --keyctl "$@" >"$file" 2>"$file.err" 3>&- &
	KW_PID="$KW_PID $!"
	wait_until grep -q '^watchq: watching' "$file.err"
}

# The suite's teardown, run once what a test left of keyctl watch is gone.
eval "helper_$(declare -f teardown)"

teardown() {
	for p in ${KW_PID:-}; do
		kill -KILL "$p" 2>/dev/null || true
	done
	KW_PID=
	[ -z "${WQ_PID:-}" ] || kill -CONT "$WQ_PID" 2>/dev/null || true
	helper_teardown
}

# linked_once PREFIX N: $T/out reports keys PREFIX1..PREFIXN linked, each exactly once.
linked_once() {
	local dups
	dups=$(grep -o "^key linked @s .* user:$1[0-9]* " "$T/out" | sort | uniq -d)
	[ -z "$dups" ] || { echo "reported twice:"; echo "$dups"; return 1; }
	[ "$(grep -c "^key linked @s .* user:$1[0-9]* " "$T/out")" -eq "$2" ]
}

@test "the backend is named, and a fallback says what polling cannot see" {
	kwatch keys @s
	b=$(backend_used)
	echo "# key backend: $b on $(uname -r)" >&3
	case $b in
	watch-queue) [ "$(wc -l <"$T/err")" -eq 1 ] ;;
	poll) grep -q "^watchq: key notifications need Linux 5.8 with CONFIG_WATCH_QUEUE and CONFIG_KEY_NOTIFICATIONS, which this kernel lacks; polling every 0.05s instead" "$T/err" ;;
	*) false ;;
	esac
}

@test "an unlinked key that can no longer be described keeps the name its linked event gave" {
	kwatch --json keys @s
	# The notification pipe gets no record when the kernel's collector unlinks an
	# invalidated key: polling is how such an unlink is seen at all.
	[ "$(backend_used)" = poll ] || skip "the kernel posts no unlinked record for a key its collector unlinks"
	k=$(keyctl add user wq-gone hello @s)
	wait_until lines_at_least 1
	# Invalidated: nothing can describe it any more, and the collector unlinks it.
	keyctl invalidate "$k"
	run ! keyctl describe "$k"
	wait_until lines_at_least 2
	stop_watchq
	jq -e -s --argjson k "$k" '.[0].event == "linked" and .[1].event == "unlinked" and
		all(.[]; .key == $k and .type == "user" and .description == "wq-gone")' "$T/out"
}

@test "linked and unlinked on a watched keyring" {
	kwatch keys @s
	s=$(keyctl id @s)
	k=$(keyctl add user wq-token hello @s)
	wait_until lines_at_least 1
	keyctl link "$k" @u
	keyctl unlink "$k" @s
	wait_until lines_at_least 2
	stop_watchq
	[ "$(sed -n 1p "$T/out")" = "key linked @s $k user:wq-token keyring=$s" ]
	[ "$(sed -n 2p "$T/out")" = "key unlinked @s $k user:wq-token keyring=$s" ]
	keyctl unlink "$k" @u
}

@test "key lines use keyctl's base, decimal, for every serial: the key beside its description, the keyring labelled" {
	ring=$(keyctl newring wq-base @s)
	s=$(keyctl id @s)
	# A target given in hex is printed as given, 0x and all; every serial watchq prints is decimal.
	hex=$(printf '0x%x' "$ring")
	kwatch keys @s "$hex"
	k=$(keyctl add user wq-base v "$ring")
	wait_until lines_at_least 1
	keyctl link "$k" @s
	wait_until lines_at_least 2
	keyctl unlink "$k" "$ring"
	wait_until lines_at_least 3
	stop_watchq
	cat "$T/out"
	[ "$(cat "$T/out")" = "$(printf '%s\n' "key linked $hex $k user:wq-base keyring=$ring" \
		"key linked @s $k user:wq-base keyring=$s" "key unlinked $hex $k user:wq-base keyring=$ring")" ]
	# Pasted into keyctl, the serial beside a description is that key, and keyring= a keyring.
	[ "$(keyctl rdescribe "$(awk 'NR == 2 { print $4 }' "$T/out")" | cut -d';' -f1,5)" = "user;wq-base" ]
	[ "$(keyctl rdescribe "$(awk 'NR == 2 { print substr($6, 9) }' "$T/out")" | cut -d';' -f1)" = keyring ]
}

@test "updated, setattr and revoked on a watched key" {
	k=$(keyctl add user wq-key v1 @s)
	kwatch keys "$k"
	keyctl update "$k" "a longer value"
	wait_until lines_at_least 1
	keyctl setperm "$k" 0x3f3f0000
	wait_until lines_at_least 2
	keyctl revoke "$k"
	wait_until lines_at_least 3
	stop_watchq
	[ "$(sed -n 1p "$T/out")" = "key updated $k $k user:wq-key" ]
	[ "$(sed -n 2p "$T/out")" = "key setattr $k $k user:wq-key" ]
	[ "$(sed -n 3p "$T/out")" = "key revoked $k $k user:wq-key" ]
	[ "$(wc -l <"$T/out")" -eq 3 ]
}

@test "keyctl watch's event names select the same events, printed as watchq names them" {
	k=$(keyctl add user wq-key v1 @s)
	kwatch -e upd,attr,REV,unlink keys "$k"
	keyctl update "$k" "a longer value"
	wait_until lines_at_least 1
	keyctl setperm "$k" 0x3f3f0000
	wait_until lines_at_least 2
	keyctl revoke "$k"
	wait_until lines_at_least 3
	stop_watchq
	[ "$(cut -d' ' -f1-3 "$T/out")" = "key updated $k
key setattr $k
key revoked $k" ]
}

@test "a key given as %TYPE:DESC, and JSON fields" {
	k=$(keyctl add user wq-named v1 @s)
	kwatch --json keys %user:wq-named @s
	keyctl update "$k" "value two"
	keyctl add user wq-other x @s >/dev/null
	wait_until lines_at_least 2
	stop_watchq
	jq_event updated '.source == "key" and .watch == "%user:wq-named" and .tag == 0 and .key == '"$k"'
		and .keyring == null and .type == "user" and .description == "wq-named" and .aux == 0'
	jq_event linked '.watch == "@s" and .tag == 1 and (.keyring | type) == "number"
		and .description == "wq-other" and .aux == .key'
}

@test "-E keeps an excluded event from ever being reported" {
	k1=$(keyctl add user wq-ex1 v @s)
	k2=$(keyctl add user wq-ex2 v @s)
	kwatch -E linked keys @s
	keyctl unlink "$k1" @s
	wait_until lines_at_least 1
	keyctl add user wq-ex3 v @s >/dev/null
	keyctl unlink "$k2" @s
	wait_until lines_at_least 2
	stop_watchq
	[ "$(wc -l <"$T/out")" -eq 2 ]
	s=$(keyctl id @s)
	# The description: the key may be gone before it is read.
	[[ "$(sed -n 1p "$T/out")" == "key unlinked @s $k1 "*" keyring=$s" ]]
	[[ "$(sed -n 2p "$T/out")" == "key unlinked @s $k2 "*" keyring=$s" ]]
}

@test "a watched key that goes away is a removal, then exit 3" {
	k=$(keyctl add user wq-gone v @s)
	kwatch keys "$k"
	keyctl unlink "$k" @s
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	grep -q "^meta removal keys $k watched key is gone$" "$T/out"
}

@test "bad key specs are usage errors" {
	for spec in @x %nocolon %:x 0 -5 notakey 12abc; do
		run --separate-stderr "$WATCHQ" keys -- "$spec"
		[ "$status" -eq 64 ] || { echo "$spec: $status"; false; }
		[[ "$stderr" == "watchq: $spec: not a key (@s @u @us @p @t @g @a, a serial or %TYPE:DESC)" ]]
	done
	run --separate-stderr "$WATCHQ" keys 2147483000
	[ "$status" -eq 64 ]
	[[ "$stderr" == "watchq: 2147483000: Required key not available" ]]
	run --separate-stderr "$WATCHQ" keys %user:no-such-key-here
	[ "$status" -eq 64 ]
}

@test "backends that do not serve keys are usage errors; an unavailable one is 69" {
	run --separate-stderr "$WATCHQ" --backend=fanotify keys @s
	[ "$status" -eq 64 ]
	[[ "$stderr" == *"does not serve keys"* ]]
	run --separate-stderr "$WATCHQ" -t 0.2 --backend=watch-queue keys @s
	if grep -q . /proc/keys && [ "$status" -eq 69 ]; then
		[[ "$stderr" == "watchq: key notifications need Linux 5.8 with CONFIG_WATCH_QUEUE and CONFIG_KEY_NOTIFICATIONS, which this kernel lacks" ]]
	else
		[ "$status" -eq 2 ]	# the kernel has the notification queue
	fi
	run --separate-stderr "$WATCHQ" -q -t 0.2 --backend=poll keys @s
	[ "$status" -eq 2 ]
	[ -z "$stderr" ]
}

@test "mounts and keys in one run" {
	need_root
	mkdir "$T/a"
	kwatch mounts "$T" keys @s
	grep -Eq "^watchq: watching mounts $T \(backend [a-z+:-]+\), keys @s \(backend [a-z-]+\)$" "$T/err"
	mount -t tmpfs wq "$T/a"
	keyctl add user wq-both v @s >/dev/null
	wait_until lines_at_least 2
	stop_watchq
	unmarked | grep -q "^mount mount $T/a tmpfs wq$"
	grep -q "^key linked @s .* user:wq-both " "$T/out"
	umount "$T/a"
}

need_watch_queue() {
	[ "$(backend_used)" = watch-queue ] || skip "needs the kernel notification queue (runs in make vm-check)"
}

@test "a tiny --queue-size and a burst: loss, then a resync that reports every key once" {
	kwatch --queue-size 1 keys @s
	need_watch_queue
	kill -STOP "$WQ_PID"
	keyburst @s 100 burst
	kill -CONT "$WQ_PID"
	wait_until grep -q "^meta loss keys @s events lost, resynchronised$" "$T/out"
	wait_until bash -c "[ \$(grep -c '^key linked @s .* user:burst' '$T/out') -ge 100 ]"
	stop_watchq
	linked_once burst 100
}

@test "meta loss comes where keyctl watch says -- LOSS --, and the records the resync saw are not repeated" {
	# Long descriptions, and watchq's output through a FIFO whose reader can be stopped: watchq can then
	# be held halfway through the records before the gap, while more records queue after it.
	long=$(printf 'g%.0s' $(seq 400))
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/got" 3>&- &
	cat_pid=$!
	KW_PID="$KW_PID $cat_pid"
	# keyctl watch first, ready once it reports a probe; watchq after it, which sees no probe.
	need_queue_kernel
	keyctl_watch_ready @s "$T/kw" "^[0-9]* link " kw_probe @s
	kw=${KW_PID##* }
	skip=$KW_SKIP
	kwl=$(grep -c ' link ' "$T/kw")
	start_watchq --queue-size 256 -o "$T/fifo" keys @s
	need_watch_queue
	k0=$(keyctl add user "${long}0" v @s)
	wait_until grep -q "^[0-9]* link $k0$" "$T/kw"
	wait_until grep -q "^key linked @s $k0 " "$T/got"
	# Both rings hold 256 records: stopped, both lose the same ones.
	kill -STOP "$WQ_PID" "$kw"
	keyburst @s 300 "$long"
	# keyctl watch reads up to the gap; poll(2) does not wake it for the loss alone, the next record will.
	kill -CONT "$kw"
	wait_until bash -c "[ \$(grep -c ' link ' '$T/kw') -ge $((257 + kwl)) ]"
	# watchq takes the records before the gap, and blocks writing them; more records queue after the gap.
	kill -STOP "$cat_pid"
	kill -CONT "$WQ_PID"
	wait_until bash -c "grep -q '^State:.*S (sleeping)' /proc/$WQ_PID/status && [ \$(grep -c ' link ' '$T/kw') -ge $((257 + kwl)) ]"
	keyburst @s 50 late
	wait_until grep -q -- "^-- LOSS --$" "$T/kw"
	kill -CONT "$cat_pid"
	WAIT_LIMIT=60 wait_until bash -c "[ \$(grep -c '^key linked @s .* user:\(g*\|late\)[0-9]* ' '$T/got') -ge 351 ]"
	stop_watchq
	wait "$cat_pid"
	mv "$T/got" "$T/out"
	awk '/^meta loss/ { exit } $2 == "linked" { print $4 }' "$T/out" >"$T/wq.before"
	tail -n +$((skip + 1)) "$T/kw" | awk '/^-- LOSS --$/ { exit } $2 == "link" { print $3 }' >"$T/kw.before"
	echo "watchq:"; cut -c1-60,440- "$T/out"; echo "keyctl watch:"; cat "$T/kw"
	[ "$(wc -l <"$T/wq.before")" -eq 257 ]
	cmp "$T/wq.before" "$T/kw.before"
	linked_once "$long" 301
	linked_once late 50
}

@test "a burst racing a one-slot queue: every key reported once" {
	kwatch --queue-size 1 keys @s
	need_watch_queue
	keyburst @s 2000 race
	WAIT_LIMIT=120 wait_until bash -c "[ \$(grep -c '^key linked @s .* user:race' '$T/out') -ge 2000 ]"
	stop_watchq
	echo "# $(grep -c '^meta loss' "$T/out") losses" >&3
	grep -q '^meta loss' "$T/out"
	linked_once race 2000
	# Up to the first loss, the keys come in the order they were added, with no gap: the loss is said where they stop.
	awk '/^meta loss/ { exit } { sub(/.* user:race/, ""); sub(/ .*/, ""); print }' "$T/out" >"$T/first"
	[ -s "$T/first" ] && [ "$(cat "$T/first")" = "$(seq "$(wc -l <"$T/first")")" ] ||
		{ echo "before the first loss:"; tr '\n' ' ' <"$T/first"; false; }
}

@test "watchq keys prints every event keyctl watch prints for the same operations" {
	k=$(keyctl add user wq-side v1 @s)
	# Each keyctl watch ready (a probe reported) before watchq starts, so watchq sees no probe.
	need_queue_kernel
	keyctl_watch_ready @s "$T/kw.s" "^[0-9]* link " kw_probe @s
	skip_s=$KW_SKIP
	keyctl_watch_ready "$k" "$T/kw.k" "^$k upd\$" keyctl update "$k" v1
	skip_k=$KW_SKIP
	kwatch keys @s "$k"
	need_watch_queue
	# And watchq --keyctl, one per key as keyctl watch takes one: the same lines, byte for byte.
	kc_start "$T/kc.s" keys @s
	kc_start "$T/kc.k" keys "$k"
	k2=$(keyctl add user wq-side2 v @s)
	keyctl update "$k" v2
	keyctl setperm "$k" 0x3f3f0000
	keyctl unlink "$k2" @s
	keyctl revoke "$k"
	# keyctl watch: "ID WORD [KEY]", ID the keyring for link and unlk; watchq: "key EVENT WATCH KEY TYPE:DESC
	# [keyring=ID]". The same records, with the same serials in the same base, decimal.
	kw_lines() { tail -n +$(($2 + 1)) "$1" | awk '$1 ~ /^[0-9]+$/'; }
	wait_until lines_at_least 5
	wait_until bash -c "[ \$(tail -n +$((skip_s + 1)) '$T/kw.s' | grep -c '^[0-9]') -ge 2 ] &&
		[ \$(tail -n +$((skip_k + 1)) '$T/kw.k' | grep -c '^[0-9]') -ge 3 ]"
	wait_until lines_at_least 2 "$T/kc.s"
	wait_until lines_at_least 3 "$T/kc.k"
	kill $KW_PID
	stop_watchq
	kw() { kw_lines "$1" "$2" | sed -E 's/^([0-9]+) link /\1 linked /; s/^([0-9]+) unlk /\1 unlinked /;
		s/^([0-9]+) upd$/\1 updated/; s/^([0-9]+) attr$/\1 setattr/; s/^([0-9]+) rev$/\1 revoked/;
		s/^([0-9]+) inst$/\1 instantiated/; s/^([0-9]+) clr$/\1 cleared/; s/^([0-9]+) inv$/\1 invalidated/'; }
	wq() { awk -v w="$1" '$3 == w { if ($NF ~ /^keyring=/) print substr($NF, 9), $2, $4; else print $4, $2 }' "$T/out"; }
	echo "keyctl watch @s:"; cat "$T/kw.s"; echo "keyctl watch $k:"; cat "$T/kw.k"; echo "watchq:"; cat "$T/out"
	[ "$(kw "$T/kw.s" "$skip_s" | wc -l)" -eq 2 ] && [ "$(kw "$T/kw.k" "$skip_k" | wc -l)" -eq 3 ]
	[ "$(kw "$T/kw.s" "$skip_s")" = "$(wq @s)" ]
	[ "$(kw "$T/kw.k" "$skip_k")" = "$(wq "$k")" ]
	[ "$(kw "$T/kw.s" "$skip_s" | sed -n 1p)" = "$(keyctl id @s) linked $k2" ]
	echo "watchq --keyctl @s:"; cat "$T/kc.s"; echo "watchq --keyctl $k:"; cat "$T/kc.k"
	tail -n +$((skip_s + 1)) "$T/kw.s" | grep -vx 'Monitoring terminated' | cmp - "$T/kc.s"
	tail -n +$((skip_k + 1)) "$T/kw.k" | grep -vx 'Monitoring terminated' | cmp - "$T/kc.k"
	[ -s "$T/kw.s" ] && [ -s "$T/kw.k" ]
}

@test "--keyctl prints each change as keyctl watch does, on either backend" {
	k=$(keyctl add user wq-kc v1 @s)
	s=$(keyctl id @s)
	kwatch --keyctl keys @s "$k"
	k2=$(keyctl add user wq-kc2 v @s)
	wait_until lines_at_least 1
	keyctl update "$k" "a longer value"
	wait_until lines_at_least 2
	keyctl setperm "$k" 0x3f3f0000
	wait_until lines_at_least 3
	keyctl unlink "$k2" @s
	wait_until lines_at_least 4
	keyctl revoke "$k"
	wait_until lines_at_least 5
	stop_watchq
	cat "$T/out"
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(cat "$T/out")" = "$(printf '%s\n' "$s link $k2" "$k upd" "$k attr" "$s unlk $k2" "$k rev")" ]
}

@test "--keyctl: a loss is keyctl watch's -- LOSS -- line, then the lines of what the resync found" {
	s=$(keyctl id @s)
	kwatch --keyctl --queue-size 1 keys @s
	need_watch_queue
	kill -STOP "$WQ_PID"
	keyburst @s 100 kl
	kill -CONT "$WQ_PID"
	wait_until grep -qx -- "-- LOSS --" "$T/out"
	wait_until bash -c "[ \$(grep -c '^$s link ' '$T/out') -ge 100 ]"
	stop_watchq
	# Nothing but keyctl watch's lines, each key linked once.
	[ -z "$(grep -vx -e '-- LOSS --' -e "$s link [0-9]*" "$T/out")" ]
	[ -z "$(grep "^$s link " "$T/out" | sort | uniq -d)" ]
}

@test "--keyctl: a watched key that goes is keyctl watch's gc line, then exit 3" {
	k=$(keyctl add user wq-kc-gc v @s)
	kwatch --keyctl keys "$k"
	keyctl unlink "$k" @s
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ "$(cat "$T/out")" = "$k gc" ]
}

@test "--keyctl -0 ends each line with a NUL, and -e takes keyctl watch's words" {
	k=$(keyctl add user wq-kc0 v1 @s)
	kwatch --keyctl -0 -e attr keys "$k"
	keyctl update "$k" "a longer value"
	keyctl setperm "$k" 0x3f3f0000
	wait_until grep -qa attr "$T/out"
	stop_watchq
	[ "$(tr -d '\0' <"$T/out")" = "$k attr" ]
	[ "$(tr -cd '\0' <"$T/out" | wc -c)" -eq 1 ]
	[ "$(tr -cd '\n' <"$T/out" | wc -c)" -eq 0 ]
}

@test "--keyctl where keyctl watch has no line is a usage error" {
	for args in "--keyctl mounts /" "--keyctl keys @s mounts /" "--keyctl sb /" "--keyctl --initial keys" \
		"list --keyctl keys" "wait --key user:x --keyctl" "--keyctl -T keys" "--keyctl --json keys" \
		"--format %e --keyctl keys" "--journal --keyctl keys"; do
		run --separate-stderr "$WATCHQ" $args
		[ "$status" -eq 64 ] || { echo "$args: $status"; false; }
		[ -z "$output" ] && [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || { echo "$args: $stderr"; false; }
	done
	run --separate-stderr "$WATCHQ" --keyctl keys @s mounts /
	[ "$stderr" = "watchq: --keyctl prints keyctl watch's lines, which have no words for mounts or sb: watch keys alone" ]
	run --separate-stderr "$WATCHQ" --keyctl --json keys
	[ "$stderr" = "watchq: --json and --keyctl cannot be combined" ]
	run --separate-stderr "$WATCHQ" --keyctl mounts /
	[ "$stderr" = "watchq: --keyctl applies to keys" ]
}

@test "wait --key started before the key exists exits 0 once it is linked" {
	start_watchq --interval 0.05 wait --key user:wq-wait
	[[ "$(tail -n 1 "$T/err")" =~ ^watchq:\ waiting\ for\ --key\ user:wq-wait\ \(backend\ (watch-queue|poll)\)$ ]]
	kill -0 "$WQ_PID"
	keyctl add user wq-other v @s >/dev/null
	sleep 0.2
	kill -0 "$WQ_PID"
	keyctl add user wq-wait v @s >/dev/null
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ ! -s "$T/out" ]
}

@test "wait --key started after the key exists exits 0 at once" {
	keyctl add user wq-there v @s >/dev/null
	run --separate-stderr "$WATCHQ" -q -t 5 wait --key user:wq-there
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "wait --no-key, and --keyring names another keyring" {
	ring=$(keyctl newring wq-ring @s)
	k=$(keyctl add user wq-in-ring v "$ring")
	run --separate-stderr "$WATCHQ" -q -t 0.3 --interval 0.05 wait --key user:wq-in-ring
	[ "$status" -eq 2 ]
	run --separate-stderr "$WATCHQ" -q -t 5 wait --key user:wq-in-ring --keyring "$ring"
	[ "$status" -eq 0 ]
	start_watchq --interval 0.05 wait --no-key user:wq-in-ring --keyring "$ring"
	keyctl unlink "$k" "$ring"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "wait --key times out with 2, and exits 3 when its keyring goes away" {
	run --separate-stderr "$WATCHQ" -q -t 0.2 wait --key user:never
	[ "$status" -eq 2 ]
	ring=$(keyctl newring wq-doomed @s)
	start_watchq --interval 0.05 wait --key user:never --keyring "$ring"
	keyctl unlink "$ring" @s
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
}

@test "bad key conditions are usage errors" {
	run --separate-stderr "$WATCHQ" wait --key nocolon
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --key nocolon: not TYPE:DESC" ]
	run --separate-stderr "$WATCHQ" wait --no-key :x
	[ "$status" -eq 64 ]
	run --separate-stderr "$WATCHQ" wait --mount / --keyring @s
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --keyring goes with --key or --no-key" ]
	run --separate-stderr "$WATCHQ" --keyring @s keys @s
	[ "$status" -eq 64 ]
	run --separate-stderr "$WATCHQ" --key user:x keys @s
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --key is a wait condition: use watchq wait --key" ]
	run --separate-stderr "$WATCHQ" wait --key user:x --keyring @nope
	[ "$status" -eq 64 ]
}

@test "--recursive follows keyrings linked below a watched one, as they come and go" {
	kwatch --recursive keys @s
	ring=$(keyctl newring wq-sub @s)
	wait_until lines_at_least 1
	k=$(keyctl add user wq-deep v "$ring")
	wait_until lines_at_least 2
	keyctl unlink "$ring" @s
	wait_until lines_at_least 3
	stop_watchq
	s=$(keyctl id @s)
	[ "$(sed -n 1p "$T/out")" = "key linked @s $ring keyring:wq-sub keyring=$s" ]
	[ "$(sed -n 2p "$T/out")" = "key linked @s $k user:wq-deep keyring=$ring" ]
	[[ "$(sed -n 3p "$T/out")" == "key unlinked @s $ring "*" keyring=$s" ]]
}

@test "--recursive follows a keyring linked after start even when -E excludes linked" {
	kwatch -E linked --recursive keys @s
	ring=$(keyctl newring wq-sub3 @s)
	# Once the keyring is followed, a key that leaves it is reported under @s.
	churn() {
		k=$(keyctl add user wq-deep3 v "$ring") && keyctl unlink "$k" "$ring" >/dev/null &&
			grep -q "^key unlinked @s [0-9]* user:wq-deep3 keyring=$ring$" "$T/out"
	}
	wait_until churn
	stop_watchq
	[ -z "$(grep -v "^key unlinked @s " "$T/out")" ]
}

@test "--recursive describes each key it meets once, however many a keyring holds" {
	command -v strace >/dev/null || skip "strace not installed"
	ring=$(keyctl newring wq-big @s)
	keyburst "$ring" 2000 many
	printf '#!/bin/sh\nexec strace -f -qq -e trace=keyctl -o "%s" "%s" "$@"\n' "$T/trace" "$WATCHQ" >"$T/traced"
	chmod +x "$T/traced"
	WATCHQ=$T/traced kwatch --recursive keys @s
	k=$(keyctl add user wq-late v "$ring")
	wait_until grep -q "^key linked @s $k user:wq-late keyring=$ring$" "$T/out"
	kill -TERM "$(pgrep -P "$WQ_PID")"
	finish_watchq
	# keyctl_describe_alloc asks twice: the size, then the text (counted here).
	sed -n 's/.*keyctl(KEYCTL_DESCRIBE, \([0-9]*\), ".*/\1/p' "$T/trace" | sort | uniq -c >"$T/counts"
	keyctl rlist "$ring" | tr ' ' '\n' | grep -vx "$k" >"$T/leaves"
	[ "$(wc -l <"$T/leaves")" -eq 2000 ]
	awk 'NR == FNR { leaf[$1] = 1; next } ($2 in leaf) && $1 > 1 { print $2 " described " $1 " times" }' \
		"$T/leaves" "$T/counts" >"$T/over"
	[ ! -s "$T/over" ] || { head "$T/over"; false; }
}

@test "a description holding a newline cannot forge a /proc/keys line for another key" {
	k=$(keyctl add user wq-victim v @s)
	kwatch keys "$k"
	hex=$(printf '%08x' "$k")
	# Lines claiming that the victim is revoked and invalidated; some forgers sort before it, some after.
	for i in 1 2 3 4 5 6 7 8; do
		keyctl add user "$(printf 'x%s\n%s IR-Q--i     1 perm 3f010000     0     0 user      wq-victim: 1' "$i" "$hex")" v @s >/dev/null
	done
	echo "# lines of /proc/keys starting with the victim's serial: $(grep -c "^$hex " /proc/keys)" >&3
	keyctl setperm "$k" 0x3f3f0000
	wait_until lines_at_least 1
	stop_watchq
	[ "$(cat "$T/out")" = "key setattr $k $k user:wq-victim" ]
}

@test "without --recursive, a keyring below is not followed; --recursive needs keys" {
	ring=$(keyctl newring wq-sub2 @s)
	kwatch keys @s
	keyctl add user wq-deep2 v "$ring" >/dev/null
	k=$(keyctl add user wq-top v @s)
	wait_until lines_at_least 1
	stop_watchq
	[ "$(wc -l <"$T/out")" -eq 1 ]
	[ "$(cat "$T/out")" = "key linked @s $k user:wq-top keyring=$(keyctl id @s)" ]
	run --separate-stderr "$WATCHQ" --recursive mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --recursive applies to keys" ]
}

# followed KEY KEYRING: $T/err (WATCHQ_DEBUG=keys) says watchq follows KEY, linked in KEYRING.
followed() {
	grep -q "^watchq: debug: [0-9.]* keys: following $1, linked in $2, under " "$T/err"
}

@test "--follow reports the own changes of keys linked in a watched keyring, at the start and later" {
	s=$(keyctl id @s)
	k0=$(keyctl add user wq-fl0 v0 @s)
	away=$(keyctl newring wq-away @s)
	keyctl link "$k0" "$away"
	WATCHQ_DEBUG=keys kwatch --follow keys @s
	followed "$k0" "$s"
	# A keyring is --recursive's to follow, not --follow's.
	run ! grep -q "following $away," "$T/err"
	k=$(keyctl add user wq-fl v @s)
	wait_until lines_at_least 1
	wait_until followed "$k" "$s"
	keyctl update "$k" "a longer value"
	wait_until lines_at_least 2
	keyctl setperm "$k" 0x3f3f0000
	wait_until lines_at_least 3
	keyctl update "$k0" "a longer value"
	wait_until lines_at_least 4
	keyctl revoke "$k"
	wait_until lines_at_least 5
	# Unlinked from the watched keyring: no longer followed, its changes no news.
	keyctl unlink "$k0" @s
	wait_until grep -q "keys: no longer following $k0: not linked below @s$" "$T/err"
	keyctl update "$k0" "a value longer still"
	k3=$(keyctl add user wq-fl3 v @s)
	wait_until grep -q "^key linked @s $k3 " "$T/out"
	stop_watchq
	cat "$T/out"
	[ "$(cat "$T/out")" = "$(printf '%s\n' "key linked @s $k user:wq-fl keyring=$s" \
		"key updated @s $k user:wq-fl" "key setattr @s $k user:wq-fl" "key updated @s $k0 user:wq-fl0" \
		"key revoked @s $k user:wq-fl" "key unlinked @s $k0 user:wq-fl0 keyring=$s" \
		"key linked @s $k3 user:wq-fl3 keyring=$s")" ]
}

@test "--follow with -e updated: links still say what to follow, and only updates are reported" {
	WATCHQ_DEBUG=keys kwatch --follow -e updated keys @s
	k=$(keyctl add user wq-fle v @s)
	wait_until followed "$k" "$(keyctl id @s)"
	keyctl update "$k" "a longer value"
	wait_until lines_at_least 1
	stop_watchq
	[ "$(cat "$T/out")" = "key updated @s $k user:wq-fle" ]
}

@test "--follow --recursive: keys linked in a keyring below a watched one are followed too" {
	ring=$(keyctl newring wq-fsub @s)
	WATCHQ_DEBUG=keys kwatch --follow --recursive keys @s
	k=$(keyctl add user wq-fdeep v "$ring")
	wait_until followed "$k" "$ring"
	keyctl setperm "$k" 0x3f3f0000
	wait_until grep -q "^key setattr @s $k user:wq-fdeep$" "$T/out"
	stop_watchq
	[ "$(cat "$T/out")" = "$(printf '%s\n' "key linked @s $k user:wq-fdeep keyring=$ring" \
		"key setattr @s $k user:wq-fdeep")" ]
}

@test "--follow on the notification queue: an update that keeps a followed key's size is reported" {
	WATCHQ_DEBUG=keys kwatch --follow keys @s
	need_watch_queue
	k=$(keyctl add user wq-fsame v1 @s)
	wait_until followed "$k" "$(keyctl id @s)"
	# Polling cannot see this update (the summary, the size, stays); the kernel's record says it.
	keyctl update "$k" v2
	wait_until lines_at_least 2
	stop_watchq
	[ "$(sed -n 2p "$T/out")" = "key updated @s $k user:wq-fsame" ]
}

@test "--follow goes with keys monitors and wait -e; elsewhere a usage error" {
	run --separate-stderr "$WATCHQ" --follow mounts /
	[ "$status" -eq 64 ] && [ "$stderr" = "watchq: --follow applies to keys" ]
	run --separate-stderr "$WATCHQ" list --follow keys
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --follow reports the changes of keys linked in a watched keyring: list prints those keys already, and --key and --no-key look in the --keyring itself" ]
	run --separate-stderr "$WATCHQ" wait --key user:x --follow
	[ "$status" -eq 64 ] && [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	run --separate-stderr "$WATCHQ" -q -t 0 --follow wait -e updated keys @s
	[ "$status" -eq 2 ]
}

@test "cleared and invalidated" {
	ring=$(keyctl newring wq-clear @s)
	keyctl add user wq-c1 v "$ring" >/dev/null
	k=$(keyctl add user wq-inv v @s)
	kwatch keys "$ring" "$k"
	keyctl clear "$ring"
	wait_until lines_at_least 1
	case $(backend_used) in
	watch-queue) [ "$(sed -n 1p "$T/out")" = "key cleared $ring $ring" ] ;;
	poll) [[ "$(sed -n 1p "$T/out")" == "key unlinked $ring "* ]] ;;	# polling cannot tell a clear
	esac
	keyctl invalidate "$k"
	case $(backend_used) in
	watch-queue) wait_until grep -q "^key invalidated $k $k user:wq-inv$" "$T/out" ;;
	poll) wait_until grep -q "^\(key invalidated $k \|meta removal keys $k \)" "$T/out" ;;	# the collector may be first
	esac
}

@test "instantiated: a key watched while under construction (request-key upcall)" {
	[ -r /etc/request-key.d/watchq.conf ] || skip "needs the request-key helper that make vm-check installs in its guest"
	k=$(keyctl request2 user "watchq-inst:$BATS_TEST_NUMBER" "callout-data" @s)
	wait_until grep -q '^exit' "/tmp/watchq-request-key/$k.err"
	cat "/tmp/watchq-request-key/$k.err" "/tmp/watchq-request-key/$k.out"
	grep -qx 'exit 0' "/tmp/watchq-request-key/$k.err"
	[ "$(cat "/tmp/watchq-request-key/$k.out")" = "key instantiated $k $k user:watchq-inst:$BATS_TEST_NUMBER" ]
}
