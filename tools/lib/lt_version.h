/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_version.h - the release of the tools, as `--version` prints it: the
 * VERSION of the top-level Makefile (test_tools_cli checks they agree).
 * The record format they read is LT_RECORD_FORMAT (lt_proc.h).
 */
#ifndef LT_VERSION_H
#define LT_VERSION_H

#define LT_TOOLS_VERSION	"0.1.0"

#endif /* LT_VERSION_H */
