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

# mountinfo_field MOUNTPOINT N: field N (awk's) of the line of /proc/self/mountinfo
# whose mount point is MOUNTPOINT (without escapes), counted from the end where N < 0.
mountinfo_field() {
	awk -v mp="$1" -v n="$2" '$5 == mp { print (n < 0 ? $(NF + 1 + n) : $n) }' /proc/self/mountinfo
}

@test "overlay options with an escaped space and comma keep the kernel's escapes on both backends" {
	need_root
	grep -qw overlay /proc/filesystems || skip "no overlay filesystem"
	mkdir -p "$T/low er" "$T/lo,w" "$T/up" "$T/work" "$T/m"
	mount -t overlay ov -o "lowerdir=$T/low er:$T/lo\\,w,upperdir=$T/up,workdir=$T/work" "$T/m" ||
		skip "overlay mount failed"
	want=$(mountinfo_field "$T/m" -1)
	[[ "$want" == *'low\040er'* ]]
	for be in $(backends); do
		present $be --json
		got=$(jq -r -s --arg p "$T/m" 'map(select(.path == $p))[0].options' "$T/$be")
		[ "$got" = "$(mountinfo_field "$T/m" 6),${want#*,}" ] ||
			{ echo "$be: $got, mountinfo: $want"; false; }
	done
}

@test "a bind of a subdirectory or a file has its root: JSON, --format %F, text SOURCE[ROOT]" {
	need_root
	mkdir -p "$T/fs" "$T/sub" "$T/whole"
	mount -t tmpfs wq "$T/fs"
	mkdir "$T/fs/in dir"
	touch "$T/fs/file" "$T/bindfile"
	mount --bind "$T/fs/in dir" "$T/sub"
	mount --bind "$T/fs/file" "$T/bindfile"
	mount --bind "$T/fs" "$T/whole"
	[ "$(findmnt -n -o FSROOT "$T/sub")" = "/in dir" ]
	for be in $(backends); do
		present $be --json
		for m in fs sub bindfile whole; do
			want=$(mountinfo_field "$T/$m" 4 | sed 's/\\040/ /g')
			jq -e -s --arg p "$T/$m" --arg r "$want" 'map(select(.path == $p))[0].root == $r' "$T/$be" ||
				{ echo "$be $m: want $want"; cat "$T/$be"; false; }
		done
		present $be
		grep -qxF "mount present $T/sub tmpfs wq[/in\\x20dir]" "$T/$be" || { echo "$be"; cat "$T/$be"; false; }
		grep -qxF "mount present $T/bindfile tmpfs wq[/file]" "$T/$be"
		grep -qxF "mount present $T/whole tmpfs wq" "$T/$be"
		present $be --format '%p %F'
		grep -qxF "$T/sub /in\\x20dir" "$T/$be"
		grep -qxF "$T/fs /" "$T/$be"
	done
}

@test "a change of propagation is a propagation event, with the state before" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq "$T/a"
	for be in $(backends); do
		WATCHQ_BACKEND=$be start_watchq -j -e propagation mounts "$T"
		mount --make-shared "$T/a"
		# mount(2)'s --make-shared raises no mountinfo signal: the next change of the table does.
		mount -t tmpfs wq "$T/b"
		wait_until grep -q '"event":"propagation"' "$T/out"
		stop_watchq
		jq_event propagation '.path == "'"$T/a"'" and (.propagation | test("^shared:[0-9]+$")) and
			.old_propagation == "private"'
		[ "$(wc -l <"$T/out")" -eq 1 ] || { echo "$be"; cat "$T/out"; false; }
		mount --make-private "$T/a"
		umount "$T/b"
	done
}

@test "every field of a tricky table equals mountinfo's and findmnt's, on both backends" {
	need_root
	command -v python3 >/dev/null || skip "python3 not installed"
	mkdir -p "$T/fs" "$T/sub" "$T/stack" "$T/sh" "$T/peer" "$T/slave" "$T/unb" "$T/priv" \
		"$T/sp ace" "$T/new"$'\n'"line" "$T/back\\slash" "$T/"$'\xff' "$T/empty" "$T/o"
	mount -t tmpfs wq-fs "$T/fs"
	mkdir "$T/fs/in dir"
	touch "$T/fs/file" "$T/file"
	mount --bind "$T/fs/in dir" "$T/sub"
	mount --bind "$T/fs/file" "$T/file"
	mount -t tmpfs lower "$T/stack"
	mount -t tmpfs -o ro,size=1M upper "$T/stack"
	mount -t tmpfs wq-sh "$T/sh"
	mount --make-shared "$T/sh"
	mount --bind "$T/sh" "$T/peer"
	mount --bind "$T/sh" "$T/slave"
	mount --make-slave "$T/slave"
	mount --make-shared "$T/slave"
	mount -t tmpfs wq-unb "$T/unb"
	mount --make-unbindable "$T/unb"
	mount -t tmpfs wq-priv "$T/priv"
	for d in "sp ace" "new"$'\n'"line" "back\\slash" $'\xff'; do
		mount -t tmpfs "src $d" "$T/$d"
	done
	mount -t tmpfs "" "$T/empty"
	if grep -qw overlay /proc/filesystems; then
		mkdir -p "$T/o/low er" "$T/o/lo,w" "$T/o/up" "$T/o/work" "$T/o/m"
		mount -t overlay ov -o "lowerdir=$T/o/low er:$T/o/lo\\,w,upperdir=$T/o/up,workdir=$T/o/work" \
			"$T/o/m"
	fi
	findmnt -J -l -o ID,PARENT,TARGET,SOURCE,FSTYPE,OPTIONS,FSROOT,PROPAGATION >"$T/findmnt"
	files=()
	for be in $(backends); do
		present $be --json
		files+=("$T/$be")
	done
	run "$BATS_TEST_DIRNAME/mount-compare" "$T" "$T/findmnt" "${files[@]}"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# Every kind of propagation was there to compare.
	for p in '^shared:[0-9]+$' '^shared:[0-9]+,master:[0-9]+$' '^unbindable$' '^private$'; do
		jq -e -s --arg p "$p" 'any(.propagation | test($p))' "${files[0]}" >/dev/null ||
			{ echo "no $p"; false; }
	done
}
