#!/usr/bin/env bats
# The shape of src/ that HACKING.md promises: folders by layer, each including only from its own
# and those below it (the order of LAYERS in the Makefile), and no file over 800 lines.
load helper

@test "src/: every include names a header of its own layer or one below" {
	local root=$BATS_TEST_DIRNAME/.. layers
	layers=$(sed -n 's/^LAYERS = //p' "$root/Makefile")
	[ -n "$layers" ]
	python3 - "$root/src" $layers <<'PY'
import os, re, sys
src, layers = sys.argv[1], sys.argv[2:]
rank = {d: i for i, d in enumerate(layers)}
rank["."] = len(layers)		# src/main.c, on top
where, bad = {}, []
for d in list(rank):
    for f in os.listdir(os.path.join(src, d)):
        if f.endswith((".c", ".h")):
            where[f] = d
for f, d in where.items():
    text = open(os.path.join(src, d, f), encoding="utf-8").read()
    for inc in re.findall(r'^#include "([^"]+)"', text, re.M):
        if inc.endswith(".skel.h"):
            continue
        if inc not in where:
            bad.append(f"{d}/{f}: includes {inc}, which src/ does not have")
        elif rank[where[inc]] > rank[d]:
            bad.append(f"{d}/{f}: includes {where[inc]}/{inc}, a layer above it")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

@test "src/: no file over 800 lines, every file in a layer's folder" {
	local root=$BATS_TEST_DIRNAME/.. f
	for f in "$root"/src/*/*.[ch] "$root"/src/*.[ch]; do
		[ "$(wc -l <"$f")" -le 800 ] || { echo "$f: $(wc -l <"$f") lines"; false; }
	done
	# Only main.c stands beside the folders.
	[ "$(cd "$root/src" && ls -p | grep -v /)" = main.c ]
}
