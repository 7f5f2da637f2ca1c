#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: install what is missing, build pciesw.ko and switchctl, boot
# Debian's 6.12 kernel in QEMU, load the module and show the card working.
#   scripts/demo.sh [--kernel 6.1|6.12|KVER]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
series=6.12
if [ "${1:-}" = --kernel ]; then
	series=$2
fi

scripts/deps.sh
kver=$(scripts/kernels.sh "$series" 2>/dev/null || echo "$series")
scripts/build-kmod.sh "/lib/modules/$kver/build" "build/$kver" >/dev/null
make -s switchctl

mkdir -p build/demo
cat > build/demo/run.sh <<GUEST
#!/bin/bash
run() { echo; echo "\\\$ \$*"; "\$@"; }
export PATH="$top/userspace:\$PATH"
run switchctl load --switches 1 build/$kver/pciesw.ko
sleep 0.1
run switchctl list
run switchctl show pciesw0
run switchctl status pciesw0
run ls /sys/bus/pciesw/devices/
run cat /sys/bus/pciesw/devices/pciesw0/pciesw0-port1/current_link_speed
run switchctl -j status pciesw0
run switchctl unload
GUEST
chmod +x build/demo/run.sh
scripts/qemu-run.sh --kernel "$kver" -- build/demo/run.sh
