// SPDX-License-Identifier: GPL-2.0-only
/*
 * explain_bin.c - the standalone latency-tracker-explain program; the same
 * as `latency-tracker explain`.
 */
#include "explain.h"

int main(int argc, char **argv)
{
	return lt_explain_main(argc, argv);
}
