#!/usr/bin/env bash
# Builds the "am335x" guest kernel from Debian's linux-source package.
#
#   images/kernel/build.sh SOURCE_DEB FRAGMENT WORKDIR OUTDIR
#
# SOURCE_DEB  linux-source-X.Y_*.deb (it holds /usr/src/linux-source-X.Y.tar.xz)
# FRAGMENT    Kconfig fragment applied on top of omap2plus_defconfig
# WORKDIR     scratch directory (source tree and objects); wiped first
# OUTDIR      must not exist; on success it holds zImage, config, version,
#             dtbs/am335x-*.dtb, modules/lib/modules/<version>/ and build.log
#
# scripts/images calls this and caches OUTDIR by a key that includes the text
# of this file, so any change here forces a rebuild. The caller publishes the
# result; this script only fills OUTDIR.
set -euo pipefail

say() { printf '[images] %s\n' "$*"; }
die() { printf '[images] error: %s\n' "$*" >&2; exit 1; }

[ $# -eq 4 ] || die "usage: $0 SOURCE_DEB FRAGMENT WORKDIR OUTDIR"
src_deb=$1 fragment=$2 work=$3 out=$4
[ -f "$src_deb" ] || die "no such package file: $src_deb"
[ -f "$fragment" ] || die "no such config fragment: $fragment"
[ ! -e "$out" ] || die "output directory already exists: $out"

cross=arm-linux-gnueabihf-
command -v "${cross}gcc" >/dev/null ||
    die "${cross}gcc not found (install gcc-arm-linux-gnueabihf: scripts/setup)"
jobs=${AM335X_JOBS:-$(nproc)}

rm -rf "$work"
mkdir -p "$work/obj" "$out"
log=$out/build.log
: >"$log"

# A fixed build time (the source package's upload date would do as well) keeps
# two builds of one key identical: uname -v and the built-in initramfs
# otherwise carry the time of the build.
build_time="Thu Jan  1 00:00:00 UTC 1970"

# Every make goes through here: output to the log only, and on failure the
# tail of the log on stderr.
kmake() {
    if ! make -C "$work/src" O="$work/obj" ARCH=arm CROSS_COMPILE="$cross" \
            KBUILD_BUILD_USER=am335x KBUILD_BUILD_HOST=images \
            KBUILD_BUILD_TIMESTAMP="$build_time" KBUILD_BUILD_VERSION=1 \
            "$@" >>"$log" 2>&1; then
        tail -n 40 "$log" >&2
        die "make $* failed (full log: $log)"
    fi
}

say "kernel: unpacking $(basename "$src_deb")"
tarball=$(dpkg-deb -c "$src_deb" | awk '{print $NF}' |
          grep -E '^\./usr/src/linux-source-[0-9.]+\.tar\.xz$' | head -n 1 || true)
[ -n "$tarball" ] || die "$src_deb holds no usr/src/linux-source-*.tar.xz"
mkdir -p "$work/unpack"
dpkg-deb --fsys-tarfile "$src_deb" | tar -xO "$tarball" | tar -xJ -C "$work/unpack"
top=$(find "$work/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$top" ] && [ -f "$top/Makefile" ] || die "unexpected layout in $tarball"
mv "$top" "$work/src"
rmdir "$work/unpack"

say "kernel: configuring (omap2plus_defconfig + $(basename "$fragment"))"
kmake omap2plus_defconfig
# omap2plus_defconfig builds ~750 modules for every OMAP generation. Drop all
# of them; the fragment turns back on, built in, what AM335x boards use.
sed -i -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' "$work/obj/.config"
cat "$fragment" >>"$work/obj/.config"
kmake olddefconfig

# A symbol whose dependencies are off is silently dropped by Kconfig; catch
# that here rather than in a guest that lacks a driver. A symbol asked to be
# off may also vanish from .config once what it depends on is off.
bad=0
while IFS= read -r line; do
    sym=$(printf '%s\n' "$line" | grep -oE 'CONFIG_[A-Za-z0-9_]+')
    case $line in
        "# "*) grep -qE "^$sym=" "$work/obj/.config" || continue ;;
        *) grep -qxF -- "$line" "$work/obj/.config" && continue ;;
    esac
    got=$(grep -E "^(# )?$sym[= ]" "$work/obj/.config" || echo "absent")
    printf '[images] error: fragment wants "%s", .config has "%s"\n' "$line" "$got" >&2
    bad=1
done < <(grep -E '^(CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set)$' "$fragment")
[ "$bad" -eq 0 ] || die "the config fragment did not apply (missing dependencies?)"
nmod=$(grep -c '=m$' "$work/obj/.config" || true)
say "kernel: $(grep -c '=y$' "$work/obj/.config") options built in, $nmod modular"

say "kernel: building zImage, dtbs and modules with -j$jobs (log: $log)"
start=$(date +%s)
kmake -j"$jobs" zImage dtbs modules &
pid=$!
# Heartbeat while make runs: elapsed time and the last object compiled.
ticks=0
while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    ticks=$((ticks + 1))
    if [ $((ticks % 12)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
        last=$(grep -E '^  [A-Z]+ ' "$log" | tail -n 1 | sed -E 's/^ +//' || true)
        say "kernel: still building, $(( ($(date +%s) - start) / 60 )) min so far (${last:-starting})"
    fi
done
wait "$pid" || exit 1
say "kernel: compiled in $(( $(date +%s) - start )) s"
# Only known once the build has run syncconfig (CONFIG_LOCALVERSION).
release=$(cat "$work/obj/include/config/kernel.release" 2>/dev/null || true)
[ -n "$release" ] || die "the build left no include/config/kernel.release"

kmake INSTALL_MOD_PATH="$out/modules" modules_install
# These point into WORKDIR, which is deleted after the build.
rm -f "$out/modules/lib/modules/$release/build" "$out/modules/lib/modules/$release/source"
[ -d "$out/modules/lib/modules/$release" ] ||
    die "modules_install produced no lib/modules/$release"

cp "$work/obj/arch/arm/boot/zImage" "$out/zImage"
cp "$work/obj/.config" "$out/config"
printf '%s\n' "$release" >"$out/version"
mkdir -p "$out/dtbs"
dtbdir=$work/obj/arch/arm/boot/dts
ls "$dtbdir"/am335x-*.dtb >/dev/null 2>&1 || die "no am335x-*.dtb in $dtbdir"
cp "$dtbdir"/am335x-*.dtb "$out/dtbs/"
say "kernel: done, $(ls "$out/dtbs" | wc -l) dtbs, zImage $(stat -c %s "$out/zImage") bytes"
