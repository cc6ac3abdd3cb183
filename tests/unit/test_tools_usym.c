// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tools_usym.c - naming user-space frames (tools/lib/lt_usym.c, used
 * by `latency-tracker flamegraph` for ustack=): a tiny program compiled
 * here (gcc -O0 -fno-omit-frame-pointer -Wl,--build-id; PIE and not),
 * its build id and the file offsets of lt_usym_outer() and
 * lt_usym_inner() read from its note and symbol table with gelf (not
 * with lt_usym's own code), then:
 *   - --binary files (lt_usym_add_binary()): "lt_usym_inner+0x4" for an
 *     offset inside it, refusals of a file that is not ELF, has no build
 *     id, does not exist;
 *   - by build id in a debug directory: .build-id/xx/yyyy (the binary),
 *     .build-id/xx/yyyy.debug alone (objcopy --only-keep-debug, whose
 *     program headers lost their file offsets; PIE and not), a stripped
 *     --binary named from its .debug file;
 *   - the input text back for an unknown build id, an offset in no
 *     segment, a malformed frame; "[unknown]" unchanged;
 *   - whole ustack= lists (lt_usym_stack()), the counts;
 *   - DEBUGINFOD_URLS removed unless debuginfod is allowed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "lt_usym.h"
#include "tap.h"

static const char prog_src[] =
	"int lt_usym_inner(int x) __attribute__((noinline));\n"
	"int lt_usym_outer(int x) __attribute__((noinline));\n"
	"int lt_usym_inner(int x)\n{\n\tint y = x * 3;\n\n\treturn y + 1;\n}\n"
	"int lt_usym_outer(int x)\n{\n\tint y = lt_usym_inner(x);\n\n\treturn y + 2;\n}\n"
	"int main(int argc, char **argv)\n{\n\t(void)argv;\n"
	"\treturn lt_usym_outer(argc) == 7;\n}\n";

struct prog {
	char id[129];		/* hex */
	uint64_t inner, outer;	/* file offsets */
	uint64_t inner_size, outer_size;
};

static char dir[] = "/tmp/lt-usym-XXXXXX";

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc)
		tap_diag("'%s': status %d", cmd, rc);
	return rc;
}

/* vaddr -> file offset through the PT_LOAD holding it. */
static bool to_off(Elf *e, uint64_t vaddr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

/* The build id (its note) and the two functions (.symtab) of a program. */
static bool read_prog(const char *path, struct prog *p)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	bool id = false, in = false, out = false;
	Elf *e;

	memset(p, 0, sizeof(*p));
	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!gelf_getshdr(scn, &sh) || !d)
			continue;
		if (sh.sh_type == SHT_NOTE) {
			GElf_Nhdr nh;
			size_t o = 0, no, dsc;

			while ((o = gelf_getnote(d, o, &nh, &no, &dsc)) > 0) {
				if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
				    memcmp((char *)d->d_buf + no, "GNU", 4))
					continue;
				for (size_t i = 0; i < nh.n_descsz && i < 64; i++)
					sprintf(p->id + 2 * i, "%02x",
						((unsigned char *)d->d_buf)[dsc + i]);
				id = true;
			}
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s))
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (name && !strcmp(name, "lt_usym_inner")) {
				in = to_off(e, s.st_value, &p->inner);
				p->inner_size = s.st_size;
			} else if (name && !strcmp(name, "lt_usym_outer")) {
				out = to_off(e, s.st_value, &p->outer);
				p->outer_size = s.st_size;
			}
		}
	}
	elf_end(e);
	close(fd);
	return id && in && out;
}

static const char *name(struct lt_usym *u, const char *id, uint64_t off)
{
	static char buf[256];

	lt_usym_name(u, id, off, buf, sizeof(buf));
	return buf;
}

static bool is(const char *got, const char *want, const char *what)
{
	bool ok = !strcmp(got, want);

	tap_ok(ok, "%s: %s", what, want);
	if (!ok)
		tap_diag("got '%s'", got);
	return ok;
}

static void binaries(const struct prog *p, const struct prog *np)
{
	struct lt_usym *u = lt_usym_new(false);
	char path[512], want[256], why[512], buf[256];
	uint64_t named, unnamed;
	char *s, *list;
	int rc;

	snprintf(path, sizeof(path), "%s/prog", dir);
	tap_eq(lt_usym_add_binary(u, path, why, sizeof(why)), 0, "--binary prog: indexed");
	snprintf(path, sizeof(path), "%s/prog-nopie", dir);
	tap_eq(lt_usym_add_binary(u, path, why, sizeof(why)), 0, "--binary prog-nopie: indexed");
	/* An empty debug path: nothing but the binaries given. */
	lt_usym_set_debug_path(u, "");

	is(name(u, p->id, p->inner + 4), "lt_usym_inner+0x4", "an offset inside lt_usym_inner");
	is(name(u, p->id, p->outer), "lt_usym_outer+0x0", "lt_usym_outer's first byte");
	snprintf(want, sizeof(want), "lt_usym_outer+0x%" PRIx64, p->outer_size - 1);
	is(name(u, p->id, p->outer + p->outer_size - 1), want, "lt_usym_outer's last byte");
	is(name(u, np->id, np->inner + 4), "lt_usym_inner+0x4", "not PIE: inside lt_usym_inner");
	is(name(u, np->id, np->outer + 8), "lt_usym_outer+0x8", "not PIE: inside lt_usym_outer");
	/* Upper case build id: the same file. */
	snprintf(buf, sizeof(buf), "%s", p->id);
	for (char *c = buf; *c; c++)
		if (*c >= 'a' && *c <= 'f')
			*c = (char)(*c - 'a' + 'A');
	is(name(u, buf, p->inner + 1), "lt_usym_inner+0x1", "an upper case build id");

	/* The input text back. */
	is(name(u, "0123456789abcdef0123456789abcdef01234567", 0x1139),
	   "0123456789abcdef0123456789abcdef01234567+0x1139", "an unknown build id: its text");
	tap_ok(!lt_usym_name(u, "0123456789abcdef0123456789abcdef01234567", 0x1139, buf, sizeof(buf)),
	       "an unknown build id: not named");
	snprintf(want, sizeof(want), "%s+0x%" PRIx64, p->id, (uint64_t)1 << 40);
	is(name(u, p->id, (uint64_t)1 << 40), want, "an offset in no segment: its text");
	is(name(u, "xyz", 16), "xyz+0x10", "a build id that is not hex: its text");
	tap_ok(!lt_usym_frame(u, "[unknown]", buf, sizeof(buf)) && !strcmp(buf, "[unknown]"),
	       "[unknown] unchanged, not named");
	lt_usym_frame(u, "ab12+zz", buf, sizeof(buf));
	is(buf, "ab12+zz", "a malformed frame unchanged");
	snprintf(path, sizeof(path), "%s+0x%" PRIx64, p->id, p->inner + 4);
	tap_ok(lt_usym_frame(u, path, buf, sizeof(buf)) && !strcmp(buf, "lt_usym_inner+0x4"),
	       "a frame's text named");

	/* A whole list, innermost first, as in ustack=. */
	if (asprintf(&list, "%s+0x%" PRIx64 ";%s+0x%" PRIx64 ";[unknown];abcd+0x10",
		     p->id, p->inner + 4, p->id, p->outer + 8) < 0)
		list = NULL;
	s = list ? lt_usym_stack(u, list) : NULL;
	is(s ? s : "(null)", "lt_usym_inner+0x4;lt_usym_outer+0x8;[unknown];abcd+0x10",
	   "a ustack= list named frame by frame");
	free(s);
	free(list);
	s = lt_usym_stack(u, "");
	is(s ? s : "(null)", "", "an empty list");
	free(s);
	/* A frame longer than any build id frame: as it is. */
	list = malloc(3100);
	if (list) {
		memset(list, 'x', 3000);
		strcpy(list + 3000, "+0x1;;[unknown]");
	}
	s = list ? lt_usym_stack(u, list) : NULL;
	tap_ok(s && !strcmp(s, list), "a 3000-byte frame and an empty one kept as they are");
	free(s);
	free(list);
	lt_usym_counts(u, &named, &unnamed);
	tap_eq(named, 9, "counts: frames named");
	tap_eq(unnamed, 5, "counts: frames not named ([unknown] not counted)");

	/* Refusals. */
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	errno = 0;
	rc = lt_usym_add_binary(u, path, why, sizeof(why));
	tap_ok(rc == -1 && errno == ENOEXEC && strstr(why, "not an ELF file"),
	       "--binary of a file that is not ELF: ENOEXEC, said (%s)", why);
	snprintf(path, sizeof(path), "%s/prog-noid", dir);
	rc = lt_usym_add_binary(u, path, why, sizeof(why));
	tap_ok(rc == -1 && errno == ENODATA && strstr(why, "build id"),
	       "--binary of an ELF file without build id: ENODATA, said (%s)", why);
	snprintf(path, sizeof(path), "%s/nosuch", dir);
	rc = lt_usym_add_binary(u, path, why, sizeof(why));
	tap_ok(rc == -1 && errno == ENOENT && strstr(why, "No such file"),
	       "--binary of a file that does not exist: ENOENT, said (%s)", why);
	lt_usym_free(u);
}

/* By build id, with no --binary: the debug directories. */
static void by_build_id(const struct prog *p, const struct prog *np)
{
	struct lt_usym *u;
	char path[1024], why[512];

	/* d1: .build-id/xx/yyyy, a link to the binary. */
	u = lt_usym_new(false);
	snprintf(path, sizeof(path), "%s/d1", dir);
	lt_usym_set_debug_path(u, path);
	is(name(u, p->id, p->inner + 4), "lt_usym_inner+0x4", "by build id: .build-id/xx/yyyy");
	lt_usym_free(u);

	/* d2: .build-id/xx/yyyy.debug alone (a -dbgsym package's file). */
	u = lt_usym_new(false);
	snprintf(path, sizeof(path), "%s/nosuch:%s/d2", dir, dir);
	lt_usym_set_debug_path(u, path);
	is(name(u, p->id, p->outer + 8), "lt_usym_outer+0x8",
	   "by build id: .build-id/xx/yyyy.debug alone (second directory)");
	is(name(u, np->id, np->inner + 4), "lt_usym_inner+0x4",
	   "by build id: the .debug file alone of the program not PIE");
	lt_usym_free(u);

	/* A stripped --binary: its symbols from d2's .debug file. */
	u = lt_usym_new(false);
	snprintf(path, sizeof(path), "%s/d2", dir);
	lt_usym_set_debug_path(u, path);
	snprintf(path, sizeof(path), "%s/prog-stripped", dir);
	tap_eq(lt_usym_add_binary(u, path, why, sizeof(why)), 0, "--binary of the stripped program");
	is(name(u, p->id, p->inner + 4), "lt_usym_inner+0x4",
	   "a stripped --binary named from its .debug file");
	lt_usym_free(u);

	/* Nowhere: an empty directory. */
	u = lt_usym_new(false);
	snprintf(path, sizeof(path), "%s/d3", dir);
	lt_usym_set_debug_path(u, path);
	snprintf(path, sizeof(path), "%s+0x%" PRIx64, p->id, p->inner + 4);
	is(name(u, p->id, p->inner + 4), path, "a build id found nowhere: its text");
	lt_usym_free(u);
}

static void debuginfod(void)
{
	struct lt_usym *u;
	const char *v;

	setenv("DEBUGINFOD_URLS", "https://example.invalid", 1);
	u = lt_usym_new(false);
	tap_ok(!getenv("DEBUGINFOD_URLS"), "debuginfod not allowed: DEBUGINFOD_URLS removed");
	lt_usym_free(u);
	u = lt_usym_new(true);
	v = getenv("DEBUGINFOD_URLS");
	tap_ok(v && !strcmp(v, LT_USYM_DEBUGINFOD_DEFAULT),
	       "debuginfod allowed, DEBUGINFOD_URLS unset: Debian's server");
	lt_usym_free(u);
	setenv("DEBUGINFOD_URLS", "https://example.invalid", 1);
	u = lt_usym_new(true);
	v = getenv("DEBUGINFOD_URLS");
	tap_ok(v && !strcmp(v, "https://example.invalid"),
	       "debuginfod allowed, DEBUGINFOD_URLS set: kept");
	lt_usym_free(u);
	unsetenv("DEBUGINFOD_URLS");
}

int main(void)
{
	struct prog p, np, sp;
	char path[512];
	FILE *f;
	bool ok;

	tap_plan(35);
	elf_version(EV_CURRENT);
	/* No network from this test whatever the environment says. */
	unsetenv("DEBUGINFOD_URLS");
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	f = fopen(path, "w");
	if (f) {
		fputs(prog_src, f);
		fclose(f);
	}
#define CC "gcc -O0 -fno-omit-frame-pointer -o %s/%s %s/prog.c"
	ok = f && !sh(CC " -Wl,--build-id", dir, "prog", dir) &&
		!sh(CC " -no-pie -fno-pie -Wl,--build-id", dir, "prog-nopie", dir) &&
		!sh(CC " -Wl,--build-id=none", dir, "prog-noid", dir) &&
		read_prog(strcat(strcpy(path, dir), "/prog"), &p) &&
		read_prog(strcat(strcpy(path, dir), "/prog-nopie"), &np);
	tap_ok(ok, "the programs built, their build ids and functions read");
	if (!ok)
		return tap_done();
	tap_diag("build id %s: lt_usym_inner at file offset 0x%" PRIx64
		 ", lt_usym_outer at 0x%" PRIx64, p.id, p.inner, p.outer);
	tap_ok(p.inner_size > 8 && p.outer_size > 8 && strcmp(p.id, np.id),
	       "the functions longer than 8 bytes, the two build ids differ");
	/* The debug directories: d1 a link, d2 the .debug file alone. */
	ok = !sh("cd %s && mkdir -p d1/.build-id/%.2s d2/.build-id/%.2s d3 &&"
		 " ln -s %s/prog d1/.build-id/%.2s/%s &&"
		 " objcopy --only-keep-debug prog d2/.build-id/%.2s/%s.debug &&"
		 " objcopy --strip-all prog prog-stripped",
		 dir, p.id, p.id, dir, p.id, p.id + 2, p.id, p.id + 2) &&
		!sh("cd %s && mkdir -p d2/.build-id/%.2s &&"
		    " objcopy --only-keep-debug prog-nopie d2/.build-id/%.2s/%s.debug",
		    dir, np.id, np.id, np.id + 2) &&
		!read_prog(strcat(strcpy(path, dir), "/prog-stripped"), &sp);
	tap_ok(ok, "debug directories made, the stripped program has no symbols");

	binaries(&p, &np);
	by_build_id(&p, &np);
	debuginfod();

	sh("rm -rf %s", dir);
	return tap_done();
}
