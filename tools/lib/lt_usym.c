// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_usym.c - names for the user-space frames of the alert records, with
 * libdw (lt_usym.h says how they are looked up).
 *
 * Each build id gets a Dwfl of its own holding one module, reported with
 * its build id alone (dwfl_report_module() + dwfl_module_report_build_id())
 * at address 0, so that libdwfl's find_elf callback (ours: the --binary
 * files, then dwfl_build_id_find_elf(), then the .debug file alone) and
 * find_debuginfo (dwfl_standard_find_debuginfo()) do the searching, and
 * dwfl_module_addrinfo() the naming.  Named frames are kept per module
 * (an open-addressing table by offset): the same frames come back in
 * every record, and libdwfl's symbol search is not free.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#include "lt_usym.h"
#include "lt_num.h"

/* The longest build id taken (bytes; GNU's are 20, sha1). */
#define USYM_ID_MAX	64
/* Where the build-id directories are when not told (libdwfl's too). */
#define USYM_DEBUG_DEFAULT	"/usr/lib/debug"
/* The module's end: the file is reported at 0 with this much room. */
#define USYM_SPAN	(UINT64_C(1) << 56)

struct usym_bin {
	char *id;		/* lowercase hex */
	char *path;
};

struct usym_name {
	uint64_t off;
	char *name;		/* NULL: the slot is free */
	bool named;		/* false: the input text (no symbol there) */
};

/* A PT_LOAD segment: the file's bytes [off, off + size) at vaddr. */
struct usym_seg {
	uint64_t off, size, vaddr;
};

struct usym_mod {
	char *id;		/* lowercase hex */
	Dwfl *dwfl;		/* NULL when no ELF file was found */
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct usym_seg *segs;
	size_t nsegs;
	struct usym_name *names;
	size_t nnames, capnames;	/* capnames: 0 or a power of 2 */
};

struct lt_usym {
	bool debuginfod;
	char *debug_path;	/* libdwfl's debuginfo_path (NULL: its default) */
	Dwfl_Callbacks cb;
	struct usym_bin *bins;
	size_t nbins;
	struct usym_mod *mods;
	size_t nmods, capmods;
	uint64_t named, unnamed;
	bool debug_only;	/* find_elf gave the .debug file alone */
};

static bool once_elf_version;

static void elf_init(void)
{
	if (!once_elf_version) {
		elf_version(EV_CURRENT);
		once_elf_version = true;
	}
}

static int usym_find_elf(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 char **file_name, Elf **elfp);

struct lt_usym *lt_usym_new(bool debuginfod)
{
	struct lt_usym *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	elf_init();
	u->debuginfod = debuginfod;
	/*
	 * libdw's debuginfod client (libdebuginfod.so, loaded by libdwfl
	 * when it is installed) asks the servers of DEBUGINFOD_URLS when it
	 * is set and non-empty, and nothing otherwise.
	 */
	if (!debuginfod) {
		unsetenv("DEBUGINFOD_URLS");
	} else {
		const char *urls = getenv("DEBUGINFOD_URLS");

		if (!urls || !*urls)
			setenv("DEBUGINFOD_URLS", LT_USYM_DEBUGINFOD_DEFAULT, 1);
	}
	u->cb.find_elf = usym_find_elf;
	u->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	u->cb.debuginfo_path = &u->debug_path;
	return u;
}

void lt_usym_free(struct lt_usym *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nbins; i++) {
		free(u->bins[i].id);
		free(u->bins[i].path);
	}
	free(u->bins);
	for (size_t i = 0; i < u->nmods; i++) {
		struct usym_mod *m = &u->mods[i];

		for (size_t j = 0; j < m->capnames; j++)
			free(m->names[j].name);
		free(m->names);
		free(m->segs);
		if (m->dwfl)
			dwfl_end(m->dwfl);
		free(m->id);
	}
	free(u->mods);
	free(u->debug_path);
	free(u);
}

int lt_usym_set_debug_path(struct lt_usym *u, const char *path)
{
	char *p = strdup(path);

	if (!p)
		return -1;
	free(u->debug_path);
	u->debug_path = p;
	return 0;
}

static void hex(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Hex text -> bytes and its lowercase form; the byte count, or -1. */
static int unhex(const char *s, size_t n, unsigned char *b, char *lower)
{
	if (!n || n % 2 || n > 2 * USYM_ID_MAX)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		int hi = lt_hexval(s[i]), lo = lt_hexval(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		b[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	hex(b, n / 2, lower);
	return (int)(n / 2);
}

static void say(char *why, size_t len, const char *fmt, const char *a,
		const char *b)
{
	if (why && len)
		snprintf(why, len, fmt, a, b);
}

/* The build id of an ELF file, in hex; -1 with errno set. */
static int file_id(const char *path, char *idhex, char *why, size_t why_len)
{
	const void *id;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	Elf *e;

	if (fd < 0) {
		err = errno;
		say(why, why_len, "%s: %s", path, strerror(err));
		errno = err;
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		say(why, why_len, "%s: %s", path, "not an ELF file");
		err = ENOEXEC;
	} else {
		ssize_t n = dwelf_elf_gnu_build_id(e, &id);

		if (n <= 0 || n > USYM_ID_MAX) {
			say(why, why_len, "%s: %s", path,
			    "no GNU build id (link with -Wl,--build-id)");
			err = ENODATA;
		} else {
			hex(id, (size_t)n, idhex);
		}
	}
	elf_end(e);
	close(fd);
	errno = err;
	return err ? -1 : 0;
}

int lt_usym_add_binary(struct lt_usym *u, const char *path,
		       char *why, size_t why_len)
{
	char idhex[2 * USYM_ID_MAX + 1];
	struct usym_bin *v;

	if (file_id(path, idhex, why, why_len))
		return -1;
	/* The first file given of a build id wins (they are the same). */
	for (size_t i = 0; i < u->nbins; i++)
		if (!strcmp(u->bins[i].id, idhex))
			return 0;
	v = realloc(u->bins, (u->nbins + 1) * sizeof(*v));
	if (!v)
		goto oom;
	u->bins = v;
	v[u->nbins].id = strdup(idhex);
	v[u->nbins].path = strdup(path);
	if (!v[u->nbins].id || !v[u->nbins].path) {
		free(v[u->nbins].id);
		free(v[u->nbins].path);
		goto oom;
	}
	u->nbins++;
	return 0;
oom:
	say(why, why_len, "%s: %s", path, strerror(ENOMEM));
	errno = ENOMEM;
	return -1;
}

/* An opened file as libdwfl's find_elf answers it. */
static int give_file(const char *path, const char *idhex, char **file_name,
		     Elf **elfp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const void *id;
	char got[2 * USYM_ID_MAX + 1];
	ssize_t n;
	Elf *e;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = e && elf_kind(e) == ELF_K_ELF ? dwelf_elf_gnu_build_id(e, &id) : -1;
	if (n > 0 && n <= USYM_ID_MAX)
		hex(id, (size_t)n, got);
	if (n <= 0 || n > USYM_ID_MAX || strcmp(got, idhex)) {
		elf_end(e);
		close(fd);
		return -1;
	}
	*file_name = strdup(path);
	*elfp = e;
	return fd;
}

/*
 * The -dbgsym file alone, <dir>/.build-id/xx/yyyy.debug, as the main file
 * when the binary itself is nowhere: its symbol table and program headers
 * are the binary's.
 */
static int debug_file(const struct lt_usym *u, const char *idhex,
		      char **file_name, Elf **elfp)
{
	const char *p = u->debug_path ? u->debug_path : USYM_DEBUG_DEFAULT;

	while (*p) {
		size_t n = strcspn(p, ":");
		const char *dir = p;
		char path[4096];
		int fd;

		p += n + (p[n] == ':');
		/* libdwfl's path: "+" or "-" before a directory (CRC checks). */
		if (n && (*dir == '+' || *dir == '-')) {
			dir++;
			n--;
		}
		if (!n || *dir != '/')
			continue;	/* relative to the binary: none here */
		if (snprintf(path, sizeof(path), "%.*s/.build-id/%.2s/%s.debug",
			     (int)n, dir, idhex, idhex + 2) >= (int)sizeof(path))
			continue;
		fd = give_file(path, idhex, file_name, elfp);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

static int usym_find_elf(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 char **file_name, Elf **elfp)
{
	struct lt_usym *u = *userdata;
	int fd;

	for (size_t i = 0; u && i < u->nbins; i++) {
		if (strcmp(u->bins[i].id, modname))
			continue;
		fd = give_file(u->bins[i].path, modname, file_name, elfp);
		if (fd >= 0)
			return fd;
	}
	fd = dwfl_build_id_find_elf(mod, userdata, modname, base, file_name,
				    elfp);
	if (fd >= 0 || *elfp || !u)
		return fd;
	fd = debug_file(u, modname, file_name, elfp);
	u->debug_only = fd >= 0;
	return fd;
}

static int segments(struct usym_mod *m, Elf *elf, bool debug_only);

/* The module of a build id: looked up the first time it is asked for. */
static struct usym_mod *module(struct lt_usym *u, const char *idhex,
			       const unsigned char *bits, int nbits)
{
	struct usym_mod *m;
	Elf *elf = NULL;
	void **ud;

	for (size_t i = 0; i < u->nmods; i++)
		if (!strcmp(u->mods[i].id, idhex))
			return &u->mods[i];
	if (u->nmods == u->capmods) {
		size_t cap = u->capmods ? 2 * u->capmods : 8;

		m = realloc(u->mods, cap * sizeof(*m));
		if (!m)
			return NULL;
		u->mods = m;
		u->capmods = cap;
	}
	m = &u->mods[u->nmods];
	memset(m, 0, sizeof(*m));
	m->id = strdup(idhex);
	if (!m->id)
		return NULL;
	u->nmods++;
	m->dwfl = dwfl_begin(&u->cb);
	if (!m->dwfl)
		return m;
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_module(m->dwfl, idhex, 0, USYM_SPAN);
	if (m->mod && dwfl_module_report_build_id(m->mod, bits, (size_t)nbits, 0))
		m->mod = NULL;
	if (m->mod) {
		dwfl_module_info(m->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		*ud = u;
	}
	dwfl_report_end(m->dwfl, NULL, NULL);
	u->debug_only = false;
	if (m->mod)
		elf = dwfl_module_getelf(m->mod, &m->bias);
	if (!elf || segments(m, elf, u->debug_only)) {
		dwfl_end(m->dwfl);
		m->dwfl = NULL;
		m->mod = NULL;
	}
	return m;
}

/*
 * The PT_LOAD segments of the main file.  A separate debug file (objcopy
 * --only-keep-debug, the -dbgsym packages) keeps the program headers'
 * addresses and memory sizes but not their file offsets: the binary's
 * layout is rebuilt as the linkers make it, each segment at the first
 * offset after the previous one that is congruent to its address modulo
 * its alignment (the first at 0), its file size its memory size.
 * -1 when the file has no segment (or out of memory).
 */
static int segments(struct usym_mod *m, Elf *elf, bool debug_only)
{
	uint64_t end = 0;
	size_t n;

	if (elf_getphdrnum(elf, &n) || !n)
		return -1;
	m->segs = calloc(n, sizeof(*m->segs));
	if (!m->segs)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct usym_seg *g = &m->segs[m->nsegs];
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		g->vaddr = ph.p_vaddr;
		g->off = ph.p_offset;
		g->size = ph.p_filesz;
		if (debug_only) {
			uint64_t a = ph.p_align, want;

			if (!a || a & (a - 1))
				a = 1;
			want = ph.p_vaddr & (a - 1);
			g->off = end + ((want - (end & (a - 1))) & (a - 1));
			g->size = ph.p_memsz;
			end = g->off + g->size;
		}
		m->nsegs++;
	}
	return m->nsegs ? 0 : -1;
}

/* A file offset -> the address in the module; false when in no segment. */
static bool file_addr(const struct usym_mod *m, uint64_t off, GElf_Addr *addr)
{
	for (size_t i = 0; i < m->nsegs; i++) {
		const struct usym_seg *g = &m->segs[i];

		if (off >= g->off && off - g->off < g->size) {
			*addr = off - g->off + g->vaddr + m->bias;
			return true;
		}
	}
	return false;
}

/* The name at a module's offset, malloc()ed; NULL when none or no memory. */
static char *lookup(const struct usym_mod *m, uint64_t off)
{
	GElf_Addr addr, in;
	GElf_Sym sym;
	const char *name;
	char *s;
	size_t n;

	if (!m->mod || !file_addr(m, off, &addr))
		return NULL;
	name = dwfl_module_addrinfo(m->mod, addr, &in, &sym, NULL, NULL, NULL);
	if (!name || !*name)
		return NULL;
	n = strlen(name) + 24;
	s = malloc(n);
	if (!s)
		return NULL;
	if (sym.st_size)
		snprintf(s, n, "%s+0x%" PRIx64, name, (uint64_t)in);
	else
		snprintf(s, n, "%s", name);
	return s;
}

static size_t slot_of(uint64_t off, size_t cap)
{
	uint64_t h = off * UINT64_C(0x9e3779b97f4a7c15);

	return (size_t)(h >> 32) & (cap - 1);
}

/* The table's slot for off (its name NULL when not there yet). */
static struct usym_name *slot(struct usym_mod *m, uint64_t off)
{
	size_t i = slot_of(off, m->capnames);

	while (m->names[i].name && m->names[i].off != off)
		i = (i + 1) & (m->capnames - 1);
	return &m->names[i];
}

static int grow(struct usym_mod *m)
{
	size_t cap = m->capnames ? 2 * m->capnames : 64;
	struct usym_name *old = m->names, *v = calloc(cap, sizeof(*v));
	size_t oldcap = m->capnames;

	if (!v)
		return -1;
	m->names = v;
	m->capnames = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].name)
			*slot(m, old[i].off) = old[i];
	free(old);
	return 0;
}

/* Named: its name; not: NULL (and *oom when out of memory). */
static const char *cached(struct usym_mod *m, uint64_t off, bool *oom)
{
	struct usym_name *e;
	char *name;

	*oom = false;
	if (m->capnames) {
		e = slot(m, off);
		if (e->name)
			return e->named ? e->name : NULL;
	}
	if (!m->mod)
		return NULL;	/* the file is nowhere: nothing to keep */
	if (2 * (m->nnames + 1) > m->capnames && grow(m)) {
		*oom = true;
		return NULL;
	}
	name = lookup(m, off);
	e = slot(m, off);
	e->off = off;
	e->named = name != NULL;
	e->name = name ? name : strdup("");
	if (!e->name) {
		*oom = true;
		return NULL;
	}
	m->nnames++;
	return name;
}

static bool fallback(const char *id, uint64_t off, char *out, size_t len)
{
	if (len)
		snprintf(out, len, "%s+0x%" PRIx64, id, off);
	return false;
}

bool lt_usym_name(struct lt_usym *u, const char *id, uint64_t off,
		  char *out, size_t len)
{
	unsigned char bits[USYM_ID_MAX];
	char idhex[2 * USYM_ID_MAX + 1];
	struct usym_mod *m;
	const char *name;
	bool oom;
	int n = unhex(id, strlen(id), bits, idhex);

	if (n < 0 || !(m = module(u, idhex, bits, n)) ||
	    !(name = cached(m, off, &oom))) {
		u->unnamed++;
		return fallback(id, off, out, len);
	}
	u->named++;
	if (len)
		snprintf(out, len, "%s", name);
	return true;
}

bool lt_usym_frame(struct lt_usym *u, const char *frame, char *out,
		   size_t len)
{
	char id[2 * USYM_ID_MAX + 1], *end;
	const char *plus = strchr(frame, '+');
	size_t n = plus ? (size_t)(plus - frame) : 0;

	/* strtoull() would take another "0x": the digits are checked. */
	if (plus && n && n < sizeof(id) && !strncmp(plus, "+0x", 3) &&
	    lt_hexval(plus[3]) >= 0 && plus[4] != 'x' && plus[4] != 'X') {
		unsigned long long off;

		errno = 0;
		off = strtoull(plus + 3, &end, 16);
		if (!errno && !*end) {
			memcpy(id, frame, n);
			id[n] = '\0';
			if (lt_usym_name(u, id, off, out, len))
				return true;
		}
	}
	if (len)
		snprintf(out, len, "%s", frame);
	return false;
}

char *lt_usym_stack(struct lt_usym *u, const char *ustack)
{
	size_t cap = strlen(ustack) + 256, n = 0;
	char *s = malloc(cap), frame[2 * USYM_ID_MAX + 32], name[4096];
	const char *p = ustack;

	if (!s)
		return NULL;
	for (;;) {
		size_t fl = strcspn(p, ";"), nl;
		const char *text = p;

		/* Longer than a frame with a build id: kept as it is. */
		if (fl && fl < sizeof(frame)) {
			memcpy(frame, p, fl);
			frame[fl] = '\0';
			lt_usym_frame(u, frame, name, sizeof(name));
			text = name;
		}
		nl = text == name ? strlen(name) : fl;
		/* Each byte of the name may become \x3b, and a ';' after it. */
		if (n + 4 * nl + 2 > cap) {
			char *v;

			cap = 2 * cap + 4 * nl + 2;
			v = realloc(s, cap);
			if (!v) {
				free(s);
				return NULL;
			}
			s = v;
		}
		for (size_t i = 0; i < nl; i++) {
			if (text[i] == ';') {
				memcpy(s + n, "\\x3b", 4);
				n += 4;
			} else {
				s[n++] = text[i];
			}
		}
		p += fl;
		if (!*p)
			break;
		s[n++] = ';';
		p++;
	}
	s[n] = '\0';
	return s;
}

void lt_usym_counts(const struct lt_usym *u, uint64_t *named,
		    uint64_t *unnamed)
{
	*named = u->named;
	*unnamed = u->unnamed;
}
