# SPDX-License-Identifier: MIT
#
# lib.mk - included by the makefiles that build an application against
# the build tree's liblatency-tracker as a user would, with pkg-config
# (tests/guest/progs, tests/bench; TOP set by them).  $(LTLIB_PC) is the
# build tree's .pc (lib/Makefile's pc-local); it and the library are
# remade only when the library's sources change, so that those
# applications are relinked only then.
LTLIB := $(TOP)/build/lib
LTLIB_PC := $(LTLIB)/pkgconfig/latency-tracker.pc

$(LTLIB_PC): $(TOP)/lib/lt_app.c $(TOP)/lib/latency-tracker.h \
	     $(TOP)/include/lt_app_abi.h $(TOP)/lib/latency-tracker.pc.in \
	     $(TOP)/lib/Makefile
	$(MAKE) -s -C $(TOP)/lib BUILD=$(LTLIB)
	touch $@
