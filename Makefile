# SPDX-License-Identifier: GPL-2.0
#
# pciesw: virtual PCIe 5.0 switch card (kernel module) + switchctl.
#
#   make                 module for KVER (default: the running kernel) + switchctl
#   make KVER=6.12.117+deb12-amd64    module for an installed headers package
#   make demo            boot QEMU, load the module, show the card
#   make check           deps + builds for 6.1, 6.12, debug + static checks + tests
#   make bench           benchmarks in QEMU
#   make netlink-gen     regenerate the netlink code from its spec (ynl-gen-c)
#
# Module objects go to build/KVER/ so builds for several kernels coexist.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
BUILD := build

.PHONY: all module switchctl selftests demo check bench static netlink-gen clean

all: module switchctl

module:
	scripts/build-kmod.sh $(KDIR) $(BUILD)/$(KVER)
	ln -sf $(BUILD)/$(KVER)/pciesw.ko pciesw.ko

switchctl:
	$(MAKE) -C userspace

# the kselftest harness comes from the linux-source-6.12 tarball
selftests: switchctl
	$(MAKE) -C selftests KSRC=$$(scripts/ksrc.sh)

demo:
	scripts/demo.sh

check:
	scripts/check.sh

bench:
	scripts/bench.sh

static:
	scripts/static-check.sh

netlink-gen:
	scripts/netlink-gen.sh

clean:
	rm -rf $(BUILD) pciesw.ko
	$(MAKE) -C userspace clean
	$(MAKE) -C selftests clean
