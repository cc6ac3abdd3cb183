// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep32.c - built static for i386 (gcc -m32 -static): sleeps MS
 * milliseconds (default 300) with the nanosleep system call (ia32 162;
 * glibc's nanosleep() would use clock_nanosleep_time64), then exits with exit_group
 * (ia32 system call 252; 231 on x86_64) or, given "exit", with exit
 * (ia32 1; 60 on x86_64).  A syscalls tracker comparing with the native
 * numbers takes those for ordinary slow calls that never return.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	syscall(SYS_nanosleep, &ts, NULL);
	if (argc > 2 && !strcmp(argv[2], "exit"))
		syscall(SYS_exit, 0);
	syscall(SYS_exit_group, 0);
	return 0;
}
