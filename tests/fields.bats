#!/usr/bin/env bats
# The fields of mount records, field by field against /proc/self/mountinfo and
# findmnt, the same on both mount backends.
load helper

# backends: the mount backends this machine has.
backends() {
	local be
	for be in fanotify mountinfo; do
		"$WATCHQ" -qq -t 0 --backend=$be mounts / >/dev/null 2>&1 || [ $? -eq 2 ] || continue
		echo $be
	done
}

# present BE [OPTION...]: the present records of the mounts under $T on backend BE, into $T/BE.
present() {
	local be=$1
	shift
	"$WATCHQ" -q -t 0 --backend="$be" --initial "$@" mounts "$T" >"$T/$be" || [ $? -eq 2 ]
}

@test "an empty source is null in JSON and - in text; a source that is - prints as \\x2d" {
	need_root
	mkdir "$T/empty" "$T/dash"
	mount -t tmpfs "" "$T/empty"
	mount -t tmpfs - "$T/dash"
	for be in $(backends); do
		present $be --json
		jq -e -s --arg p "$T/empty" 'map(select(.path == $p))[0].device == null' "$T/$be" ||
			{ echo "$be"; cat "$T/$be"; false; }
		jq -e -s --arg p "$T/dash" 'map(select(.path == $p))[0].device == "-"' "$T/$be"
		present $be
		grep -qxF "mount present $T/empty tmpfs -" "$T/$be" || { echo "$be"; cat "$T/$be"; false; }
		grep -qxF "mount present $T/dash tmpfs \\x2d" "$T/$be" || { echo "$be"; cat "$T/$be"; false; }
	done
}
