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
# fill or check an endpoint's window through mmap() of /dev/pcieswN
cat > build/demo/window.py <<'PY'
#!/usr/bin/python3
"""window.py fill|check|zero SWITCH EP MIB SEED: MIB MiB from byte 0 of
EP's window; block i of the pattern is a 1 MiB random block of SEED
rotated by i bytes, so a block out of place does not match."""
import fcntl, mmap, os, random, struct, sys

op, sw, ep, mib, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
with open(f"/sys/bus/pciesw/devices/{sw}-{ep}/id") as f:
    ep_id = int(f.read())
fd = os.open(f"/dev/{sw}", os.O_RDWR)
# struct pciesw_ep_map; PCIESW_IOC_EP_MAP = _IOWR(0xB9, 0x01, 64 bytes)
req = bytearray(struct.pack("=IIII QQ 4Q", 64, 0, ep_id, 0, 0, 0, 0, 0, 0, 0))
fcntl.ioctl(fd, 0xC040B901, req)
off = struct.unpack_from("=Q", req, 16)[0]
m = mmap.mmap(fd, mib << 20, mmap.MAP_SHARED, offset=off)
blk = random.Random(seed).randbytes(1 << 20)
bad = 0
for i in range(mib):
    want = b"\0" * (1 << 20) if op == "zero" else blk[i:] + blk[:i]
    if op == "check":
        bad += m[i << 20:(i + 1) << 20] != want
    else:
        m[i << 20:(i + 1) << 20] = want
if op == "check":
    print(f"{sw} {ep}: {mib - bad} of {mib} MiB match pattern {seed}")
    sys.exit(1 if bad else 0)
print(f"{sw} {ep}: {op} {mib} MiB" + (f" with pattern {seed}" if op == "fill" else ""))
PY
chmod +x build/demo/window.py
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
# the data path: NVMe -> GPU peer-to-peer, then through the host, on data
# written into the NVMe window first and checked in the GPU's after each
run build/demo/window.py fill pciesw0 nvme0 64 7
run build/demo/window.py zero pciesw0 gpu0 64 0
run switchctl dma bench pciesw0 nvme0 gpu0 --size 64M --block 1M --depth 16
run build/demo/window.py check pciesw0 gpu0 64 7 || exit 1
run build/demo/window.py zero pciesw0 gpu0 64 0
run switchctl dma bench pciesw0 nvme0 gpu0 --size 64M --block 1M --depth 16 --bounce
run build/demo/window.py check pciesw0 gpu0 64 7 || exit 1
run switchctl port set pciesw0 2 acs on
run switchctl p2p check pciesw0 nvme0 gpu0
# the PCI view
run lspci -tv
run switchctl unload
GUEST
chmod +x build/demo/run.sh
scripts/qemu-run.sh --kernel "$kver" -- build/demo/run.sh
