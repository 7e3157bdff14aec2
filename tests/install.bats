#!/usr/bin/env bats
# make install / uninstall with DESTDIR and PREFIX (the completions themselves: docs.bats).
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
