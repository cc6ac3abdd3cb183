/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_usym.h - names for the user-space frames of the alert records
 * (ustack=; docs/design.md, "Stacks in records"), with libdw (elfutils).
 *
 * A user frame is "<build id hex>+0x<offset>": the offset is a FILE offset
 * in the ELF file whose GNU build id is given (the address minus the
 * mapping's start plus the mapping's file offset), or "[unknown]".  It is
 * named "function+0xNN" (the offset of the address in the function), or
 * "function" when the symbol has no size (the offset in it is unknown),
 * from the ELF file of that build id, looked up in this order:
 *
 *  1. the files given to lt_usym_add_binary() (latency-tracker flamegraph
 *     --binary), indexed by their build id;
 *  2. libdw's standard machinery (dwfl_build_id_find_elf(), then
 *     dwfl_standard_find_debuginfo() for the symbols of a stripped file):
 *     <dir>/.build-id/xx/yyyy (a link to the binary) and
 *     <dir>/.build-id/xx/yyyy.debug (its -dbgsym package's file, used
 *     alone when the binary is not found), <dir> being /usr/lib/debug;
 *  3. debuginfod, only when allowed (lt_usym_new(true): flamegraph
 *     --debuginfod): libdw queries the servers of DEBUGINFOD_URLS, or
 *     https://debuginfod.debian.net when that is unset or empty.  When not
 *     allowed, DEBUGINFOD_URLS is removed from the environment of the
 *     process, so that libdw makes no network access (Debian's
 *     libdebuginfod-common sets it in every login shell).
 *
 * The file offset becomes an address through the PT_LOAD segment that
 * holds it (vaddr = offset - p_offset + p_vaddr) and the module's bias.
 * Each build id is looked up once (a small table), each frame named once.
 * A frame whose ELF is not found, or with no symbol at its address, keeps
 * its text.
 */
#ifndef LT_USYM_H
#define LT_USYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lt_usym;

/* The default debuginfod server when DEBUGINFOD_URLS is unset or empty. */
#define LT_USYM_DEBUGINFOD_DEFAULT	"https://debuginfod.debian.net"

/* A symbolizer; debuginfod allows network access (3. above).  NULL when
 * out of memory. */
struct lt_usym *lt_usym_new(bool debuginfod);
void lt_usym_free(struct lt_usym *u);

/*
 * Index the ELF file at path by its GNU build id (looked up before any
 * other file of that build id).  Returns 0, or -1 with errno set: the file
 * cannot be read (errno of open()), is not an ELF file (ENOEXEC) or has no
 * build id (ENODATA); why (when not NULL) then says it in words.
 */
int lt_usym_add_binary(struct lt_usym *u, const char *path,
		       char *why, size_t why_len);

/*
 * The directories searched by build id instead of /usr/lib/debug
 * (libdwfl's debuginfo_path: ':'-separated; the tests use it).  0, or -1
 * when out of memory.  Before the first lookup.
 */
int lt_usym_set_debug_path(struct lt_usym *u, const char *path);

/*
 * Name the frame at file offset off of the ELF file of build id id (hex)
 * into out: "function+0xNN", "function", or, when it cannot be named, the
 * input text "<id>+0x<off>".  Returns true when named.
 */
bool lt_usym_name(struct lt_usym *u, const char *id, uint64_t off,
		  char *out, size_t len);

/*
 * Name one frame's text ("<id>+0x<off>"); another text ("[unknown]", a
 * malformed frame) is copied as it is.  Returns true when named.
 */
bool lt_usym_frame(struct lt_usym *u, const char *frame, char *out,
		   size_t len);

/*
 * A ustack= list (frames separated by ';') with each frame named by
 * lt_usym_frame() (a ';' in a name is written \x3b); malloc()ed, NULL
 * when out of memory.
 */
char *lt_usym_stack(struct lt_usym *u, const char *ustack);

/* Frames named and not named so far (by the three calls above). */
void lt_usym_counts(const struct lt_usym *u, uint64_t *named,
		    uint64_t *unnamed);

#endif /* LT_USYM_H */
