# SPDX-License-Identifier: GPL-2.0-only
#
# latency-tracker: user entry points.  `make help` lists them.

VERSION := 0.1.0
SHELL := /bin/bash
TOP := $(CURDIR)

# Kernel build directory: the running kernel's if it has one, else the
# newest installed Debian headers.
KDIR ?= $(shell k=/lib/modules/$$(uname -r)/build; \
	if [ -e $$k/Makefile ]; then echo $$k; else \
	ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1; fi)

# Release of the kernel at KDIR (evaluated only by the targets that use it).
KREL = $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)

DEPS := $(TOP)/tests/vm/deps.sh
CHECK := $(TOP)/tests/check.sh

.PHONY: all modules tools check check-mttcg check-unit check-daemon check-vm check-dkms check-debug lint soak selftest demo \
	bench install deb check-deb dkms clean help

all: modules tools

modules:
	@[ -n "$(KDIR)" ] || { echo "error: no kernel headers found; install linux-headers-$$(uname -r) or set KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules
	$(MAKE) -C probes/lttng KDIR=$(KDIR)

tools:
	@$(DEPS) tools
	$(MAKE) -C tools

# The whole test suite; the last line is "N passed, M failed".  The guest
# tests run on Debian 12's two kernel lines, on the newest kernel of
# Debian's current stable backports and its PREEMPT_RT flavour, and on the
# debug kernel (a 6.1 built here once with KASAN, lockdep and kmemleak;
# cached), each its tier of tests (README, "Tiers").
check:
	@$(DEPS) build unit vm dkms deb lint tools lttng debugkernel
	@KERNEL="6.1 6.12 current current-rt debug" $(CHECK) unit+daemon lint+selftest vm mttcg dkms+deb

# The guest tests on the debug kernel alone (T= narrows them).
check-debug:
	@$(DEPS) build vm tools lttng debugkernel
	@KERNEL=debug T="$(T)" $(CHECK) vm

# The race tests under multi-threaded TCG (part of make check).
check-mttcg:
	@$(DEPS) build vm tools lttng
	@$(CHECK) mttcg

check-unit:
	@$(DEPS) unit tools
	@$(CHECK) unit

# latency-trackerd on the host (part of make check): lifecycle under ASan,
# metrics scraped by a real Prometheus (tests/tools/).
check-daemon:
	@$(DEPS) tools vm
	@$(CHECK) daemon

# Guest tests: make check-vm [T="<name>..."] [KERNEL="<line>..."]; lines:
# 6.1 6.12 current current-rt debug (default: the four Debian ones); with
# no T=, each line's tier of tests.
check-vm:
	@$(DEPS) build vm tools lttng
	@KERNEL="$(KERNEL)" T="$(T)" $(CHECK) vm

check-dkms:
	@$(DEPS) build dkms
	@$(CHECK) dkms

# The .deb packages installed in a clean Debian 12 root (part of make check).
check-deb:
	@$(DEPS) tools deb
	@$(CHECK) deb

# sparse, checkpatch --strict, cppcheck, probe prototypes, no string instruction on
# the probe path (exceptions: tests/lint-exceptions.txt)
lint:
	@$(DEPS) build lint
	@$(CHECK) lint

# The torture test for as long as asked (default 10 min, debug kernel).
DURATION ?= 600
soak:
	@$(DEPS) build vm debugkernel
	@LTG_TORTURE_SECONDS=$(DURATION) LT_TEST_TIMEOUT=$$(($(DURATION) + 300)) \
		KERNEL="$(or $(KERNEL),debug)" T=torture $(CHECK) vm

selftest:
	@$(DEPS) build vm
	@$(CHECK) selftest

demo:
	@$(DEPS) build vm tools lttng
	@$(TOP)/tests/vm/demo.sh

# Benchmarks side by side with their peers; table on stdout, JSON in
# BENCH_JSON (default bench-results.json); fails when a configuration
# could not be measured.  A part of it: LTG_BENCH_PARTS="pair" (or
# hackbench, scaling, alert), LTG_BENCH_CONFIGS="none ours ..." (see
# tests/guest/bench.sh).
bench:
	@$(DEPS) build unit vm tools lttng bench
	@$(TOP)/tests/bench/run.sh

install: modules tools
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install
	$(MAKE) -C probes/lttng KDIR=$(KDIR) install
	depmod -a $(KREL)
	$(MAKE) -C tools install

# Debian packages latency-tracker-dkms and latency-tracker (debian/), built
# from a copy of the working tree, in DEB_OUT with lintian's report.
DEB_OUT ?= $(TOP)/build/deb
deb:
	@$(DEPS) tools deb
	@$(TOP)/tests/pkg/make-deb.sh $(DEB_OUT)

dkms:
	rm -rf /usr/src/latency-tracker-$(VERSION)
	mkdir -p /usr/src/latency-tracker-$(VERSION)
	git ls-files -z | xargs -0 cp --parents -t /usr/src/latency-tracker-$(VERSION)
	dkms status -m latency-tracker -v $(VERSION) | grep -q . || \
		dkms add -m latency-tracker -v $(VERSION)
	dkms build -m latency-tracker -v $(VERSION) -k $(KREL)
	dkms install -m latency-tracker -v $(VERSION) -k $(KREL)

clean:
	[ -z "$(KDIR)" ] || $(MAKE) -C $(KDIR) M=$(TOP) clean
	$(MAKE) -C tools clean
	rm -rf build

help:
	@echo "make modules   build the kernel modules (KDIR=<kernel build dir>)"
	@echo "make tools     build latency-trackerd and latency-tracker"
	@echo "make check     the whole test suite (host tests, QEMU guests on five kernels, dkms)"
	@echo "make check-vm T=<test> KERNEL=<6.1|6.12|current|current-rt|debug>   guest tests"
	@echo "make check-debug   the guest tests on the KASAN/lockdep/kmemleak debug kernel (T=)"
	@echo "make lint      sparse, checkpatch --strict, cppcheck, probe prototypes, hot path"
	@echo "make soak DURATION=<s>   the torture test on the debug kernel, as long as asked"
	@echo "make demo      a real latency outlier caught in a QEMU guest"
	@echo "make bench     benchmarks against peers, side by side"
	@echo "make install   modules_install + depmod + tools;  make dkms: DKMS package"
	@echo "make deb       Debian packages latency-tracker-dkms, latency-tracker (in build/deb)"
