#!/usr/bin/env bats
# make install / uninstall with DESTDIR and PREFIX; the completions load.
load helper

@test "make install puts binary, man page and completions under DESTDIR/PREFIX; uninstall removes them" {
	cd "$BATS_TEST_DIRNAME/.."
	[ -w . ] || skip "source tree is read-only here"
	run make -s install DESTDIR="$T/root" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -x "$T/root/usr/bin/watchq" ]
	[ -s "$T/root/usr/share/man/man1/watchq.1" ]
	[ -s "$T/root/usr/share/bash-completion/completions/watchq" ]
	[ -s "$T/root/usr/share/zsh/site-functions/_watchq" ]
	[ -s "$T/root/usr/share/fish/vendor_completions.d/watchq.fish" ]
	"$T/root/usr/bin/watchq" --version
	run make -s uninstall DESTDIR="$T/root" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -z "$(find "$T/root" -type f)" ]
}

@test "the man page documents every long option of --help" {
	man=$BATS_TEST_DIRNAME/../watchq.1.scd
	for opt in $("$WATCHQ" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "\*$opt\*\|\*-., $opt\*" "$man" || { echo "missing from the man page: $opt"; false; }
	done
}

# complete_bash WORDS...: the candidates bash completion offers for the last word.
complete_bash() {
	local f=/usr/share/bash-completion/bash_completion
	[ -r "$f" ] || skip "bash-completion not installed"
	bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_watchq watchq "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$f" "$BATS_TEST_DIRNAME/../completions/watchq.bash" "$@"
}

@test "bash completion offers sources, options, events and backends" {
	run complete_bash watchq ''
	[[ "$output" == *mounts* && "$output" == *wait* && "$output" == *keys* ]]
	run complete_bash watchq --ti
	[[ "$output" == *--timeout* && "$output" == *--timefmt* && "$output" == *--timestamps* ]]
	run complete_bash watchq -e mo
	[ "$(echo "$output" | sort | tr '\n' ' ')" = "mount move move_from move_to " ]
	run complete_bash watchq -e unmount,mo
	[[ "$output" == *unmount,move_from* ]]
	run complete_bash watchq --backend m
	[ "$output" = mountinfo ]
	run complete_bash watchq wait --unm
	[ "$output" = --unmount ]
	run complete_bash watchq mounts /pro
	[[ "$output" == */proc* ]]
}
