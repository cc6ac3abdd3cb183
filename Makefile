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

.PHONY: all modules tools check check-full check-mttcg check-unit check-daemon check-vm check-dkms check-debug check-browser lint soak selftest demo \
	bench install deb check-deb dkms clean help

all: modules tools

modules:
	@[ -n "$(KDIR)" ] || { echo "error: no kernel headers found; install linux-headers-$$(uname -r) or set KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules
	$(MAKE) -C probes/lttng KDIR=$(KDIR)

tools:
	@$(DEPS) tools
	$(MAKE) -C tools

# The fast tier, what a contributor runs while working: host unit tests,
# the daemon suite, lint and the harness self-test against 6.12, and 6.12's
# fast list of guest tests on both CPUs.  The last lines: a table of phase
# durations, then "N passed, M failed" (docs/testing.md).
check:
	@$(CHECK) --tier fast --deps "build unit vm tools lttng lint" \
		unit+daemon+lint selftest+vm

# The whole matrix, what CI runs: every kernel line (6.1, 6.12, the newest
# backports kernel and its PREEMPT_RT flavour, the debug kernel) with its
# list of guest tests (tests/vm/tiers.sh) and the multi-threaded lane
# (6.12-mttcg, the vm suite's last guest), lint on every Debian line, dkms,
# the Debian packages and the flame graph in a headless browser
# (tests/browser/: full tier only).  All run at once, beside the guests:
# they fill the CPU that the guests leave idle in their tests' sleeps.
check-full:
	@$(CHECK) --tier full --deps "build unit vm dkms deb lint tools lttng debugkernel browser" \
		unit+daemon+lint+selftest+vm+dkms+deb+browser

# The flame graph's SVG in headless Chromium (part of make check-full).
check-browser:
	@$(DEPS) browser
	@$(CHECK) --tier full browser

# The guest tests on the debug kernel alone (T= narrows them).
check-debug:
	@$(DEPS) build vm tools lttng debugkernel
	@KERNEL=debug T="$(T)" $(CHECK) --tier full vm

# The race tests under multi-threaded TCG (part of make check-full).
check-mttcg:
	@$(DEPS) build vm tools lttng
	@KERNEL=6.12-mttcg $(CHECK) --tier full vm

check-unit:
	@$(DEPS) unit tools
	@$(CHECK) --tier fast unit

# latency-trackerd on the host (part of make check): lifecycle under ASan,
# metrics scraped by a real Prometheus (tests/tools/).
check-daemon:
	@$(DEPS) tools vm
	@$(CHECK) --tier fast daemon

# Guest tests: make check-vm [T="<name>..."] [KERNEL="<line>..."]; lines:
# 6.1 6.12 current current-rt debug (default: the four Debian ones); with
# no T=, each line's list of tests (tests/vm/tiers.sh).
check-vm:
	@$(DEPS) build vm tools lttng
	@KERNEL="$(or $(KERNEL),6.1 6.12 current current-rt)" T="$(T)" $(CHECK) --tier full vm

check-dkms:
	@$(DEPS) build dkms
	@$(CHECK) --tier full dkms

# The .deb packages installed in a clean Debian 12 root (part of make check-full).
check-deb:
	@$(DEPS) tools deb
	@$(CHECK) --tier full deb

# sparse, checkpatch --strict, cppcheck, probe prototypes, no string instruction on
# the probe path (exceptions: tests/lint-exceptions.txt)
lint:
	@$(DEPS) build lint
	@KERNEL="6.1 6.12 current current-rt" $(CHECK) --tier full lint

# The torture test for as long as asked (default 10 min, debug kernel).
DURATION ?= 600
soak:
	@$(DEPS) build vm debugkernel
	@LTG_TORTURE_SECONDS=$(DURATION) LT_TEST_TIMEOUT=$$(($(DURATION) + 300)) \
		KERNEL="$(or $(KERNEL),debug)" T=torture $(CHECK) --tier full vm

selftest:
	@$(DEPS) build vm
	@KERNEL=6.12 $(CHECK) --tier fast selftest

demo:
	@$(DEPS) build vm tools lttng
	@$(TOP)/tests/vm/demo.sh

# Benchmarks side by side with their peers; table on stdout, JSON in
# BENCH_JSON (default bench-results.json); fails when a configuration
# could not be measured.  A part of it: LTG_BENCH_PARTS="pair" (or
# hackbench, scaling, custom, alert), LTG_BENCH_CONFIGS="none ours ..." (see
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
	@echo "make check     the fast tier: host tests, lint and the self-test, the 6.12 guests' fast list (about 8 min warm)"
	@echo "make check-full   the whole matrix (CI): five kernel lines, the debug kernel, dkms, Debian packages"
	@echo "make check-vm T=<test> KERNEL=<6.1|6.12|current|current-rt|debug>   guest tests"
	@echo "make check-unit / check-daemon / selftest / check-mttcg / check-dkms / check-deb / check-browser   one suite"
	@echo "make check-debug   the guest tests on the KASAN/lockdep/kmemleak debug kernel (T=)"
	@echo "make lint      sparse, checkpatch --strict, cppcheck, probe prototypes, hot path"
	@echo "make soak DURATION=<s>   the torture test on the debug kernel, as long as asked"
	@echo "make demo      a real latency outlier caught in a QEMU guest"
	@echo "make bench     benchmarks against peers, side by side"
	@echo "make install   modules_install + depmod + tools;  make dkms: DKMS package"
	@echo "make deb       Debian packages latency-tracker-dkms, latency-tracker (in build/deb)"
