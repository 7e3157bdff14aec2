#!/bin/sh
# Build (once) a small x86_64 kernel from Debian's linux-source-6.1 with the
# notification queue, and print the path of its bzImage.  The image is cached
# outside the repository, keyed by the config fragment and the source version.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/kernel.config
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (make deps-full installs linux-source-6.1)" >&2; exit 69; }

srcver=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null || stat -c %s "$tarball")
key=$( { cat "$fragment"; echo "$srcver"; } | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/watchq
image=$cache/bzImage-$key

if [ -s "$image" ]; then
	echo "$image"
	exit 0
fi

mkdir -p "$cache"
work=$cache/build-$key
rm -rf "$work"
mkdir -p "$work"
echo "build-kernel: unpacking linux-source-6.1 $srcver into $work" >&2
tar -C "$work" -xJf "$tarball"
src=$work/linux-source-6.1
{
	make -C "$src" tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$src" "$src/.config" "$fragment"
	make -C "$src" olddefconfig
} >"$work/config.log" 2>&1 || { tail -20 "$work/config.log" >&2; exit 1; }
for opt in WATCH_QUEUE KEY_NOTIFICATIONS FANOTIFY 9P_FS VIRTIO_PCI QUOTA_NETLINK_INTERFACE; do
	grep -q "^CONFIG_$opt=y" "$src/.config" || { echo "build-kernel: CONFIG_$opt did not stick" >&2; exit 1; }
done
echo "build-kernel: building bzImage (several minutes on 2 cores)" >&2
make -C "$src" -j"$(nproc)" bzImage >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
cp "$src/arch/x86/boot/bzImage" "$image.tmp"
mv "$image.tmp" "$image"
rm -rf "$work"
echo "$image"
