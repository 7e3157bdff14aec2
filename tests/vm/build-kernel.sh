#!/bin/sh
# Build (once) a small x86_64 kernel from Debian's linux-source-$WATCHQ_VM_KERNEL
# (default 6.12; 6.1 too) with the notification queue, and print the path of its bzImage.
# kernel.config is merged onto tinyconfig, then kernel-VERSION.config where there
# is one (6.12: BTF, the BPF JIT and LSM, ftrace direct calls: the process
# capture). The image is cached outside the repository, keyed by the config
# fragments and the source version.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ver=${WATCHQ_VM_KERNEL:-6.12}
fragment=$here/kernel.config
extra=$here/kernel-$ver.config
[ -r "$extra" ] || extra=
tarball=/usr/src/linux-source-$ver.tar.xz
[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-$ver; make deps-full installs 6.1 and 6.12)" >&2; exit 69; }

srcver=$(dpkg-query -W -f '${Version}' "linux-source-$ver" 2>/dev/null || stat -c %s "$tarball")
key=$( { cat "$fragment" $extra; echo "$srcver"; } | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/watchq
image=$cache/bzImage-$key

if [ -s "$image" ]; then
	echo "$image"
	exit 0
fi

mkdir -p "$cache"
work=$cache/build-$key
src=$work/linux-source-$ver
# A build cut short (a CI run ended) goes on where it stopped: make redoes what changed.
if [ ! -s "$src/Makefile" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	echo "build-kernel: unpacking linux-source-$ver $srcver into $work" >&2
	mkdir "$work/unpack"
	tar -C "$work/unpack" -xJf "$tarball"
	mv "$work/unpack/linux-source-$ver" "$src"
fi
{
	make -C "$src" tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$src" "$src/.config" "$fragment" $extra
	make -C "$src" olddefconfig
} >"$work/config.log" 2>&1 || { tail -20 "$work/config.log" >&2; exit 1; }
need="WATCH_QUEUE KEY_NOTIFICATIONS FANOTIFY 9P_FS VIRTIO_PCI QUOTA_NETLINK_INTERFACE"
[ -z "$extra" ] || need="$need $(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=y$/\1/p' "$extra") DYNAMIC_FTRACE_WITH_DIRECT_CALLS"
for opt in $need; do
	grep -q "^CONFIG_$opt=y" "$src/.config" || { echo "build-kernel: CONFIG_$opt did not stick" >&2; exit 1; }
done
echo "build-kernel: building bzImage (several minutes on 2 cores)" >&2
make -C "$src" -j"$(nproc)" bzImage >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
cp "$src/arch/x86/boot/bzImage" "$image.tmp"
mv "$image.tmp" "$image"
rm -rf "$work"
echo "$image"
