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
# topology: re-bifurcate the NVMe connector, the VPD's V2 follows
run switchctl lanes set pciesw0 nvme 2x8
run switchctl vpd show pciesw0
# health: temperatures (hwmon), an injected error burst
run sensors pciesw-isa-0000
run switchctl inject pciesw0 2 ecrc --count 3
run switchctl errors pciesw0
# the data path: NVMe -> GPU peer-to-peer, then through the host
run switchctl dma bench pciesw0 nvme0 gpu0 --size 64M --block 1M --depth 16
run switchctl dma bench pciesw0 nvme0 gpu0 --size 64M --block 1M --depth 16 --bounce
run switchctl port set pciesw0 2 acs on
run switchctl p2p check pciesw0 nvme0 gpu0
# the PCI view
run lspci -tv
run switchctl unload
GUEST
chmod +x build/demo/run.sh
scripts/qemu-run.sh --kernel "$kver" -- build/demo/run.sh
