#!/usr/bin/env bats
# watchq.schema.json: a real validator (python3-jsonschema) holds watchq's JSON
# to it. tests/run-bats also validates every JSON line the whole suite printed
# (tests/watchq-logged); this file checks the schema itself and that it catches
# what it must.
load helper

ROOT=$BATS_TEST_DIRNAME/..

need_jsonschema() {
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed (make deps)"
	command -v jq >/dev/null || skip "jq not installed"
}

# check: json-check on standard input, against the strict copy of the schema, as the suite validates.
check() {
	"$BATS_TEST_DIRNAME/json-check" --strict "$ROOT/watchq.schema.json"
}

# check_open: the same against the schema as installed, open to fields added later.
check_open() {
	"$BATS_TEST_DIRNAME/json-check" "$ROOT/watchq.schema.json"
}

@test "the schema is a valid draft 2020-12 schema with a version" {
	need_jsonschema
	run check </dev/null
	[ "$status" -eq 0 ]
	[ "$(jq -r '."$schema"' "$ROOT/watchq.schema.json")" = https://json-schema.org/draft/2020-12/schema ]
	[ "$(jq -r .version "$ROOT/watchq.schema.json")" -ge 1 ]
}

@test "strict copy: an added field, a missing field, a null where a value is known, a wrong type: each fails" {
	need_jsonschema
	"$WATCHQ" -q -t 0.1 --initial -j -e present mounts / | head -1 >"$T/line"
	[ -s "$T/line" ]
	run check <"$T/line"
	[ "$status" -eq 0 ]
	for edit in '.new_field = 1' 'del(.fstype)' '.path = null' '.readonly = "no"' '.tag = 256' \
	    '.time = "2026-12-03T10:00:00Z"' '.old_path = "/x"' '.source = "key"' '.event = "mounted"'; do
		jq -c "$edit" "$T/line" >"$T/bad"
		run check <"$T/bad"
		[ "$status" -eq 1 ] || { echo "schema accepts $edit"; false; }
	done
}

@test "the installed schema accepts a field a later version adds (the strict copy does not), nothing else" {
	need_root
	need_jsonschema
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	"$WATCHQ" list -j mounts "$T/a" >"$T/lines"
	"$WATCHQ" list -j sb "$T/a" >>"$T/lines"
	start_watchq -j sb "$T/a"
	umount "$T/a"
	finish_watchq
	cat "$T/out" >>"$T/lines"
	[ "$(jq -r '[.source, .event] | join(" ")' "$T/lines" | tr '\n' ,)" = "mount present,sb present,meta removal," ]
	run check_open <"$T/lines"
	[ "$status" -eq 0 ]
	jq -c '.later_field = {"any": [1]}' "$T/lines" >"$T/later"
	run check_open <"$T/later"
	[ "$status" -eq 0 ]
	run --separate-stderr check <"$T/later"
	[ "$status" -eq 1 ]
	[ "$stderr" = "json-check: 0 lines match, 3 do not" ]
	# Open to additions only: what the strict copy rejects otherwise, the open schema rejects too.
	for edit in 'del(.event)' '.tag = 256' '.source = "nosuch"' '.time = 1'; do
		jq -c "$edit" "$T/lines" >"$T/bad"
		run check_open <"$T/bad"
		[ "$status" -eq 1 ] || { echo "open schema accepts $edit"; false; }
	done
	# The two differ in that alone.
	[ "$(jq -c '[.. | objects | select(has("unevaluatedProperties")) | .unevaluatedProperties] | unique' \
		"$ROOT/watchq.schema.json")" = "[true]" ]
}

@test "every record type of mounts, sb and meta validates, hostile bytes and -0 too" {
	need_root
	need_jsonschema
	mkdir -p "$T/a" "$T/b" "$T/small" "$T/s"
	bad=$'\xff\n'
	mkdir "$T/$bad"
	start_watchq -j -0 mounts "$T"
	mount -t tmpfs wq "$T/a"
	mount -o remount,ro "$T/a"
	mount -o remount,ro,size=1M "$T/a"
	mount -o remount,rw "$T/a"
	wait_until grep -qa '"event":"writable"' "$T/out"
	mount --move "$T/a" "$T/b"
	# Read before the unmount: a mount moved and gone unread is an unmount from where it was.
	wait_until grep -qa '"event":"move"' "$T/out"
	umount "$T/b"
	mount -t tmpfs wq "$T/$bad"
	umount "$T/$bad"
	umount "$T/$bad" 2>/dev/null || true
	wait_until grep -qa '"path":"'"$T"'/\\ufffd\\n".*"event":"unmount"\|"event":"unmount".*\\ufffd' "$T/out"
	stop_watchq
	tr '\0' '\n' <"$T/out" | jq -r .event | sort -u >"$T/events"
	[ "$(tr '\n' ' ' <"$T/events")" = "mount move readonly setattr unmount writable " ] ||
		{ tr '\0' '\n' <"$T/out"; false; }
	grep -q '"path_b64"' "$T/out"
	run check <"$T/out"
	[ "$status" -eq 0 ]
	# sb lowspace and removal, meta removal.
	mount -t tmpfs -o size=1M wq "$T/small"
	run --separate-stderr "$WATCHQ" -q -j -n 1 --space-below 1E sb "$T/small"
	[ "$status" -eq 0 ]
	echo "$output" >"$T/sb"
	mount -t tmpfs wq "$T/s"
	start_watchq -j sb "$T/s"
	umount "$T/s"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	cat "$T/out" >>"$T/sb"
	[ "$(jq -r .event "$T/sb" | sort | tr '\n' ' ')" = "lowspace removal " ]
	run check <"$T/sb"
	[ "$status" -eq 0 ]
}

@test "the JSON fields of watchq-records(5) are the schema's, and the schema's the man page's" {
	need_jsonschema
	man=$(sed -n '/^# JSON$/,/^# /p' "$ROOT/watchq-records.5.scd" | sed -n 's/^|  \([a-z_]*\)$/\1/p' | sort -u)
	schema=$(jq -r '[.. | objects | .properties? // empty | keys[]] | unique[]' "$ROOT/watchq.schema.json" |
		grep -v '_b64$')
	[ "$(echo "$man" | wc -l)" -ge 30 ]
	for f in $man; do
		echo "$schema" | grep -qx "$f" || { echo "schema lacks $f"; false; }
	done
	# And the other way: every field the strict copy lets through is documented.
	for f in $schema; do
		echo "$man" | grep -qx "$f" || { echo "man page lacks $f"; false; }
	done
	grep -q 'watchq.schema.json' "$ROOT/README.md"
	grep -q 'watchq.schema.json' "$ROOT/watchq-records.5.scd"
	grep -q 'watchq.schema.json' "$ROOT/watchq.1.scd"
}
