#!/bin/bash
# Build (or fetch from cache) a small x86_64 debug kernel from Debian's
# linux-source-6.12: tinyconfig + scripts/debug-kernel.config (KASAN, lockdep,
# kmemleak, UBSAN, fault injection, and everything the QEMU runner needs built
# in), plus a standalone tree for building external modules against it.
#
# Usage: scripts/debug-kernel.sh [--rebuild]
#   Prints the cache directory as the last line of stdout:
#     DIR/bzImage   the kernel (scripts/qemu-run.sh --kernel debug boots it)
#     DIR/build     extmod tree: make -C DIR/build M=$PWD/kmod modules
#     DIR/config    the final .config
#     DIR/kernel.release  its `uname -r` (6.12.N-pciesw-debug)
#   Progress goes to stderr. Cache: /var/cache/pciesw/debug-kernel/KEY, KEY =
#   linux-source-6.12 version + fragment hash + gcc version (+ FORMAT below).
#   Env: PCIESW_CACHE (default /var/cache/pciesw), JOBS (default nproc).
set -euo pipefail

# Bump when the layout of the cache dir or the build recipe changes.
FORMAT=1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/debug-kernel.config
tarball=/usr/src/linux-source-6.12.tar.xz
cache_root=${PCIESW_CACHE:-/var/cache/pciesw}/debug-kernel
jobs=${JOBS:-$(nproc)}

log() { printf 'debug-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

rebuild=0
case "${1:-}" in
	"") ;;
	--rebuild) rebuild=1 ;;
	-h|--help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "unknown argument '$1' (usage: $0 [--rebuild])" ;;
esac

[[ -r $tarball ]] || die "$tarball missing: run scripts/deps.sh (package linux-source-6.12)"
src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	die "package linux-source-6.12 not installed: run scripts/deps.sh"
gcc_ver=$(gcc -dumpfullversion)
frag_sha=$(sha256sum "$fragment" | cut -c1-16)
# Debian versions contain '~' and '+': keep the key a plain path component.
key=$(printf '%s-%s-gcc%s-f%s' "$src_ver" "$frag_sha" "$gcc_ver" "$FORMAT" | tr -c 'A-Za-z0-9._-' '_')
dir=$cache_root/$key

mkdir -p "$cache_root"
# One builder at a time (e.g. parallel `make check` jobs); others wait and
# then find the finished cache entry.
exec 9>"$cache_root/.lock"
flock 9

if [[ $rebuild == 0 && -f $dir/complete ]]; then
	log "cached: $dir"
	echo "$dir"
	exit 0
fi

for tool in flex bison bc make gcc zstd xz; do
	command -v "$tool" >/dev/null || die "'$tool' missing: run scripts/deps.sh"
done
[[ -e /usr/include/gelf.h ]] || die "libelf-dev missing: run scripts/deps.sh"

work=$(mktemp -d "$cache_root/tmp.XXXXXX")
# Unlock first: removing a build tree takes ~10 s that nobody must wait for.
trap 'exec 9>&-; rm -rf "$work"' EXIT
start=$SECONDS

log "extracting $tarball ($src_ver)"
tar -xJf "$tarball" -C "$work"
srcdir=$work/linux-source-6.12
obj=$work/obj
[[ -f $srcdir/Makefile ]] || die "unexpected layout of $tarball"

kmake() { make -C "$srcdir" O="$obj" ARCH=x86_64 "$@"; }

log "configuring (tinyconfig + $(basename "$fragment"))"
kmake tinyconfig >&2
# -m: merge only; olddefconfig then resolves dependencies the usual way.
(cd "$srcdir" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$fragment") >&2
kmake olddefconfig >&2

# merge_config.sh drops options whose dependencies are missing without
# failing: check every line of the fragment against the final .config.
missing=()
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		grep -qxF -- "$line" "$obj/.config" ||
			missing+=("${BASH_REMATCH[1]} wanted ${BASH_REMATCH[2]}, got: $(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$obj/.config" || echo 'absent')")
	elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		! grep -qE "^${BASH_REMATCH[1]}=[ym]" "$obj/.config" ||
			missing+=("${BASH_REMATCH[1]} wanted off, got: $(grep -E "^${BASH_REMATCH[1]}=" "$obj/.config")")
	fi
done <"$fragment"
if ((${#missing[@]})); then
	log "these options of $fragment did not end up as requested (missing dependencies?):"
	printf '  %s\n' "${missing[@]}" >&2
	exit 1
fi

log "building bzImage + modules with $jobs jobs (~15 min on 2 idle cores)"
kmake -j"$jobs" bzImage modules >&2

log "creating the external-module build tree"
# install-extmod-build runs in the object dir and copies the needed sources
# from $srctree; CC == HOSTCC so it does not rebuild host programs.
(cd "$obj" && srctree=$srcdir SRCARCH=x86 CC=gcc HOSTCC=gcc MAKE=make \
	"$srcdir/scripts/package/install-extmod-build" "$work/out/build") >&2
cp "$obj/arch/x86/boot/bzImage" "$work/out/bzImage"
cp "$obj/.config" "$work/out/config"
cat "$obj/include/config/kernel.release" >"$work/out/kernel.release"

rm -rf "$dir"
mv "$work/out" "$dir"
# Written last: a cache entry without it is incomplete and gets rebuilt.
date -u +%FT%TZ >"$dir/complete"
# Drop entries of other keys (old source/gcc/fragment): each is ~70 MB.
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -name "$key" ! -name "$(basename "$work")" -exec rm -rf {} +
log "built $(cat "$dir/kernel.release") in $((SECONDS - start)) s: $dir"
echo "$dir"
