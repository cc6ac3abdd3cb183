// SPDX-License-Identifier: GPL-2.0-only
/*
 * ustack.c - a process blocked in read(2) for DELAY_MS under known user
 * functions, for the user stacks of the offcpu tracker (offcpu.sh).
 *
 * main() -> lt_ustack_outer() -> lt_ustack_inner() -> read() of a pipe
 * that a child writes DELAY_MS after the parent blocks.  Built twice
 * (tests/guest/progs/Makefile): ustack_fp with frame pointers, whose
 * stack the kernel walks through both functions and main(); ustack_nofp
 * without, whose read is a raw system call made with rbp holding a value
 * that is no frame pointer (as code built without them may leave there):
 * the walk must stop at [unknown] after the instruction pointer; and
 * ustack_jit, with frame pointers, whose read is made by code copied into
 * anonymous executable memory (as a JIT's): its first frame is [unknown]
 * (no file), the binary's frames follow.
 * Prints pid=<pid> when it is about to block; exits 0 LINGER_MS (default
 * 1000) after the read: a user stack is named when its record is read,
 * from the task's mappings, so the task must still live then (the
 * reader of the test reads at once; a task gone reads [unknown]).
 *
 * usage: ustack_fp|ustack_nofp|ustack_jit [DELAY_MS [LINGER_MS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef LT_NO_FRAME_POINTER
/* read(2) with rbp = 7: not a frame pointer (misaligned). */
static long lt_read(int fd, void *buf, size_t len)
{
	long ret;

	__asm__ volatile("push %%rbp\n\t"
			 "mov $7, %%rbp\n\t"
			 "syscall\n\t"
			 "pop %%rbp"
			 : "=a"(ret)
			 : "a"(0L), "D"((long)fd), "S"(buf), "d"(len)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(LT_JIT)
/* read(2) by code in anonymous executable memory: xor eax,eax; syscall; ret. */
static long lt_read(int fd, void *buf, size_t len)
{
	static const unsigned char code[] = { 0x31, 0xc0, 0x0f, 0x05, 0xc3 };
	static long (*fn)(int, void *, size_t);

	if (!fn) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return -1;
		memcpy(p, code, sizeof(code));
		fn = (long (*)(int, void *, size_t))p;
	}
	return fn(fd, buf, len);
}
#else
#define lt_read	read
#endif

__attribute__((noinline)) static int lt_ustack_inner(int fd)
{
	char c;

	return lt_read(fd, &c, 1) == 1 ? 0 : 1;
}

__attribute__((noinline)) static int lt_ustack_outer(int fd)
{
	int ret = lt_ustack_inner(fd);

	/* Not a tail call: this frame stays on the stack. */
	__asm__ volatile("" ::: "memory");
	return ret;
}

int main(int argc, char **argv)
{
	int delay_ms = argc > 1 ? atoi(argv[1]) : 500, p[2], ret;
	int linger_ms = argc > 2 ? atoi(argv[2]) : 1000;
	struct timespec ts = {
		.tv_sec = delay_ms / 1000,
		.tv_nsec = (delay_ms % 1000) * 1000000L,
	}, linger = {
		.tv_sec = linger_ms / 1000,
		.tv_nsec = (linger_ms % 1000) * 1000000L,
	};
	pid_t child;

	if (pipe(p))
		return 2;
	child = fork();
	if (child < 0)
		return 2;
	if (!child) {
		nanosleep(&ts, NULL);
		_exit(write(p[1], "x", 1) == 1 ? 0 : 1);
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	ret = lt_ustack_outer(p[0]);
	waitpid(child, NULL, 0);
	nanosleep(&linger, NULL);
	return ret;
}
