# SPDX-License-Identifier: GPL-2.0
#
# pciesw: virtual PCIe 5.0 switch card (kernel module) + switchctl.
#
#   make                 module for KVER (default: the running kernel) + switchctl
#   make KVER=6.12.117+deb12-amd64    module for an installed headers package
#   make demo            boot QEMU, load the module, show the card
#   make check           deps + builds for 6.1, 6.12, debug + static checks + tests
#   make bench           benchmarks in QEMU
#   make fuzz            the fuzzer on the debug kernel: 1,000,000 inputs
#                        in at most 15 minutes (scripts/fuzz.sh)
#   make soak            DMA soak under topology churn, then 100 load/unload
#                        cycles, on the debug kernel (scripts/soak.sh)
#   make netlink-gen     regenerate the netlink code from its spec (ynl-gen-c)
#   make install         switchctl, the module (for KVER), header, spec, man
#                        pages, completion, udev rules, systemd unit
#                        (DESTDIR=, PREFIX=/usr/local; the module always under
#                        /lib/modules/KVER/updates, then depmod -a KVER
#                        unless DESTDIR is set)
#   make uninstall       remove what make install installed
#   make dkms-src        the module's sources and dkms.conf into
#                        DESTDIR/usr/src/pciesw-VERSION, for dkms add
#
# Module objects go to build/KVER/ so builds for several kernels coexist.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
BUILD := build

# make install
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/pciesw
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# udev and systemd read /usr/local/lib/... as well as /usr/lib/...
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
MODDIR ?= /lib/modules/$(KVER)/updates
# the module file make install installs (built for KVER unless given)
KO ?= $(BUILD)/$(KVER)/pciesw.ko
INSTALL ?= install
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC ?= /usr/src/pciesw-$(DKMS_VERSION)

.PHONY: all module switchctl selftests demo check bench fuzz soak static netlink-gen clean \
	install uninstall dkms-src

all: module switchctl

module:
	scripts/build-kmod.sh $(KDIR) $(BUILD)/$(KVER)
	ln -sf $(BUILD)/$(KVER)/pciesw.ko pciesw.ko

# make install rebuilds the module only when a source changed
KMOD_SRC := $(shell find kmod -name '*.[ch]')
$(BUILD)/%/pciesw.ko: $(KMOD_SRC) $(wildcard include/uapi/linux/*.h) Kbuild
	scripts/build-kmod.sh $(KDIR) $(BUILD)/$*

userspace/switchctl: $(wildcard userspace/*.[ch] include/uapi/linux/*.h)
	$(MAKE) -C userspace

# Files installed with mode 644: source:destination (under DESTDIR)
DATA_FILES := \
	include/uapi/linux/pciesw.h:$(INCLUDEDIR)/linux/pciesw.h \
	include/uapi/linux/pciesw_netlink.h:$(INCLUDEDIR)/linux/pciesw_netlink.h \
	include/uapi/linux/pciesw_fw.h:$(INCLUDEDIR)/linux/pciesw_fw.h \
	Documentation/netlink/specs/pciesw.yaml:$(DATADIR)/pciesw/pciesw.yaml \
	Documentation/man/switchctl.8:$(MANDIR)/man8/switchctl.8 \
	Documentation/man/pciesw.4:$(MANDIR)/man4/pciesw.4 \
	packaging/bash-completion/switchctl:$(BASHCOMPDIR)/switchctl \
	packaging/udev/60-pciesw.rules:$(UDEVRULESDIR)/60-pciesw.rules \
	packaging/udev/61-pciesw-events.rules.example:$(DOCDIR)/examples/61-pciesw-events.rules \
	packaging/modprobe.d/pciesw.conf.example:$(DOCDIR)/examples/modprobe.d-pciesw.conf \
	packaging/modules-load.d/pciesw.conf.example:$(DOCDIR)/examples/modules-load.d-pciesw.conf \
	README:$(DOCDIR)/README \
	Documentation/architecture.md:$(DOCDIR)/architecture.md \
	Documentation/firmware.md:$(DOCDIR)/firmware.md

install: $(KO) userspace/switchctl
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MODDIR)
	$(INSTALL) -m 755 userspace/switchctl $(DESTDIR)$(BINDIR)/switchctl
	$(INSTALL) -m 755 packaging/pciesw-journal $(DESTDIR)$(BINDIR)/pciesw-journal
	$(INSTALL) -m 644 $(KO) $(DESTDIR)$(MODDIR)/pciesw.ko
	set -e; $(foreach f,$(DATA_FILES),$(INSTALL) -D -m 644 \
		$(word 1,$(subst :, ,$(f))) $(DESTDIR)$(word 2,$(subst :, ,$(f)));)
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/systemd/pciesw-monitor.service \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/pciesw-monitor.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/pciesw-monitor.service
	$(INSTALL) -D -m 644 packaging/sysusers.d/pciesw.conf \
		$(DESTDIR)$(PREFIX)/lib/sysusers.d/pciesw.conf
ifeq ($(DESTDIR),)
	depmod -a $(KVER)
	getent group pciesw >/dev/null || groupadd --system pciesw
	-udevadm control --reload 2>/dev/null
	-systemctl daemon-reload 2>/dev/null
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/switchctl $(DESTDIR)$(BINDIR)/pciesw-journal
	rm -f $(DESTDIR)$(MODDIR)/pciesw.ko
	rm -f $(foreach f,$(DATA_FILES),$(DESTDIR)$(word 2,$(subst :, ,$(f))))
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/pciesw-monitor.service
	rm -f $(DESTDIR)$(PREFIX)/lib/sysusers.d/pciesw.conf
	-rmdir $(DESTDIR)$(DATADIR)/pciesw $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(DOCDIR) 2>/dev/null
ifeq ($(DESTDIR),)
	depmod -a $(KVER)
	-udevadm control --reload 2>/dev/null
	-systemctl daemon-reload 2>/dev/null
endif

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

fuzz:
	scripts/fuzz.sh

soak:
	scripts/soak.sh

static:
	scripts/static-check.sh

netlink-gen:
	scripts/netlink-gen.sh

# what dkms needs to build the module: dkms.conf, Kbuild, the sources and
# the build script (which probes the kernel's headers)
dkms-src:
	rm -rf $(DESTDIR)$(DKMS_SRC)
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRC)/scripts \
		$(DESTDIR)$(DKMS_SRC)/include/uapi/linux
	$(INSTALL) -m 644 dkms.conf Kbuild $(DESTDIR)$(DKMS_SRC)/
	set -e; $(foreach f,$(KMOD_SRC),$(INSTALL) -D -m 644 $(f) $(DESTDIR)$(DKMS_SRC)/$(f);)
	$(INSTALL) -m 644 include/uapi/linux/*.h $(DESTDIR)$(DKMS_SRC)/include/uapi/linux/
	$(INSTALL) -m 755 scripts/build-kmod.sh $(DESTDIR)$(DKMS_SRC)/scripts/

clean:
	rm -rf $(BUILD) pciesw.ko
	$(MAKE) -C userspace clean
	$(MAKE) -C selftests clean
