// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_bin.c - main() of latency-tracker (the commands: cli_main.c).
 */
#include "cli.h"

int main(int argc, char **argv)
{
	return cli_run(argc, argv);
}
