// SPDX-License-Identifier: GPL-2.0-only
/*
 * ustack.c - user-space stacks in alert records: each user address named
 * as <build_id>+0x<offset in its file>, when the record is read.
 *
 * A tracker saves the addresses (struct lt_rec_ustack) in the task's own
 * context, under the scheduler's locks, where nothing may sleep; mapping
 * an address to its file takes the task's mmap lock, and the build id is
 * read from the file: both wait for the read of the record (process
 * context).  The task is looked up by pid and taken only if it existed at
 * the event's start (a later task given its pid started after it) and
 * runs the program the walk was in (its self_exec_id unchanged); its
 * mappings are those of the read, which a task that unmapped a library
 * meanwhile no longer has: such a frame, one of a task gone, one outside
 * any executable file mapping (anonymous memory, JIT code, or data where
 * a walk went astray), or the mark of a frame the walk could not follow,
 * reads [unknown].  Files are held
 * (get_file()) across the mmap lock's release and read after it.
 *
 * The build id is the ELF note NT_GNU_BUILD_ID of a regular file, found
 * through its program headers (a PT_NOTE segment) read from its page
 * cache, as build_id_parse() (not exported to modules) finds it.  The
 * offset is the one in the file (vm_pgoff plus the offset in the
 * mapping), which a symbolizer turns into an address through the file's
 * program headers.
 */
#include <linux/elf.h>
#include <linux/export.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <lt_records/record.h>

#include "alert_fmt.h"

/* Most characters of a user stack's value. */
#define LT_USTACK_FIELD_MAX	1024
/* Bytes of a build id kept (SHA-1 ids are 20), of a note segment read. */
#define LT_BUILD_ID_MAX		32
#define LT_NOTES_MAX		4096
/* The note type of a GNU build id (glibc's elf.h NT_GNU_BUILD_ID). */
#define LT_NT_GNU_BUILD_ID	3
/* Program headers looked at. */
#define LT_PHDRS_MAX		64
/* Text of a frame: 2 hex digits a byte of id, "+0x", 16 digits. */
#define LT_UFRAME_LEN		(2 * LT_BUILD_ID_MAX + 20)

/* One frame being named. */
struct lt_uframe {
	struct file *file;	/* held, or NULL: [unknown] */
	u64 off;
	char text[LT_UFRAME_LEN];
};

/*
 * The build id in the notes @buf (@len bytes, entries aligned to
 * @align): the gABI's layout, the name at 12 bytes from the note's start,
 * the descriptor and the next note at the next multiples of @align.
 */
static int lt_notes_build_id(const u8 *buf, size_t len, size_t align,
			     u8 *id)
{
	const struct elf64_note *nh;
	size_t pos = 0, desc, end;

	while (pos + sizeof(*nh) <= len) {
		nh = (const struct elf64_note *)(buf + pos);
		desc = ALIGN(pos + sizeof(*nh) + nh->n_namesz, align);
		end = ALIGN(desc + nh->n_descsz, align);
		if (nh->n_namesz > len || nh->n_descsz > len || end > len ||
		    end <= pos)
			return -EINVAL;
		if (nh->n_type == LT_NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    !memcmp(buf + pos + sizeof(*nh), "GNU", 4) &&
		    nh->n_descsz && nh->n_descsz <= LT_BUILD_ID_MAX) {
			memcpy(id, buf + desc, nh->n_descsz);
			return nh->n_descsz;
		}
		pos = end;
	}
	return -ENOENT;
}

/*
 * @len bytes of @file at @pos, through its page cache: no file operation
 * is called (no permission hook, no fsnotify event, no atime), as
 * build_id_parse() reads.  0 or < 0.
 */
static int lt_file_read(struct file *file, loff_t pos, void *buf, size_t len)
{
	struct address_space *mapping = file->f_mapping;
	struct page *page;
	size_t off, n;
	void *addr;

	if (pos < 0 || pos + len > i_size_read(file_inode(file)))
		return -EINVAL;
	while (len) {
		off = offset_in_page(pos);
		n = min_t(size_t, len, PAGE_SIZE - off);
		page = read_cache_page(mapping, pos >> PAGE_SHIFT, NULL, file);
		if (IS_ERR(page))
			return PTR_ERR(page);
		addr = kmap_local_page(page);
		memcpy(buf, addr + off, n);
		kunmap_local(addr);
		put_page(page);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/*
 * The GNU build id of the ELF file @file into @id; its length or < 0.  A
 * regular file only, read through its page cache.
 */
static int lt_file_build_id(struct file *file, u8 *id)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	int i, ret = -ENOENT;
	u8 *notes;

	if (!S_ISREG(file_inode(file)->i_mode) ||
	    !file->f_mapping->a_ops->read_folio)
		return -EINVAL;
	if (lt_file_read(file, 0, &eh, sizeof(eh)) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phnum > LT_PHDRS_MAX)
		return -ENOEXEC;
	notes = kmalloc(LT_NOTES_MAX, GFP_KERNEL);
	if (!notes)
		return -ENOMEM;
	for (i = 0; i < eh.e_phnum && ret < 0; i++) {
		if (lt_file_read(file, eh.e_phoff + (loff_t)i * sizeof(ph),
				 &ph, sizeof(ph)))
			break;
		if (ph.p_type != PT_NOTE || ph.p_filesz > LT_NOTES_MAX)
			continue;
		if (lt_file_read(file, ph.p_offset, notes, ph.p_filesz))
			continue;
		ret = lt_notes_build_id(notes, ph.p_filesz,
					ph.p_align == 8 ? 8 : 4, id);
	}
	kfree(notes);
	return ret;
}

/*
 * Takes the file and offset of each of @s's addresses, in the address
 * space of its task if that task is still the event's.
 */
static void lt_ustack_map(const struct lt_rec_ustack *s, unsigned int nr,
			  struct lt_uframe *fr)
{
	struct vm_area_struct *vma;
	struct task_struct *p;
	struct mm_struct *mm;
	unsigned int i;

	rcu_read_lock();
	p = latency_tracker_event_task(s->pid, s->start_ns);
	/* The event's task, in the program of the walk (no exec since). */
	if (p && READ_ONCE(p->self_exec_id) == s->exec_id)
		get_task_struct(p);
	else
		p = NULL;
	rcu_read_unlock();
	if (!p)
		return;
	mm = get_task_mm(p);
	put_task_struct(p);
	if (!mm)
		return;
	if (mmap_read_lock_killable(mm))
		goto out;
	for (i = 0; i < nr; i++) {
		if (s->ip[i] == LT_REC_USTACK_BROKEN)
			continue;
		vma = vma_lookup(mm, s->ip[i]);
		/* Code only: a broken walk may land in a file's data. */
		if (!vma || !vma->vm_file || !(vma->vm_flags & VM_EXEC))
			continue;
		fr[i].file = get_file(vma->vm_file);
		fr[i].off = s->ip[i] - vma->vm_start +
			    ((u64)vma->vm_pgoff << PAGE_SHIFT);
	}
	mmap_read_unlock(mm);
out:
	mmput(mm);
}

/* Frame @i of the named frames @ctx (lt_fmt_frames()). */
static const char *lt_uframe_name(const void *ctx, unsigned int i, char *buf,
				  size_t len)
{
	const struct lt_uframe *fr = ctx;

	return fr[i].text;
}

/* Names the frames mapped by lt_ustack_map() and drops their files. */
static void lt_ustack_name(struct lt_uframe *fr, unsigned int nr)
{
	u8 id[LT_BUILD_ID_MAX];
	unsigned int i, j;
	int n = -ENOENT;
	char *t;

	for (i = 0; i < nr; i++) {
		strscpy(fr[i].text, "[unknown]", sizeof(fr[i].text));
		if (!fr[i].file)
			continue;
		/* Frames of one file in a row share its id. */
		if (!i || !fr[i - 1].file ||
		    file_inode(fr[i].file) != file_inode(fr[i - 1].file))
			n = lt_file_build_id(fr[i].file, id);
		if (n > 0) {
			t = fr[i].text;
			for (j = 0; j < n; j++)
				t += sprintf(t, "%02x", id[j]);
			sprintf(t, "+0x%llx", (unsigned long long)fr[i].off);
		}
	}
	for (i = 0; i < nr; i++)
		if (fr[i].file)
			fput(fr[i].file);
}

/**
 * latency_tracker_fmt_ustack() - append ` key=<frame>;<frame>;...`
 * @f: the formatter given to the alert_fmt callback.
 * @key: field name.
 * @s: the user stack; nothing is appended when its nr is
 *	LT_REC_STACK_NONE.
 *
 * Each address as <build_id>+0x<offset in the file>, innermost first, or
 * [unknown] (see the top of this file), at most LT_USTACK_FIELD_MAX
 * characters of them (whole frames); empty for a stack of no frame.
 *
 * Context: process context, may sleep (inside an alert_fmt callback: the
 * task's mmap lock, the files' reads).
 */
void latency_tracker_fmt_ustack(struct lt_fmt *f, const char *key,
				const struct lt_rec_ustack *s)
{
	struct lt_uframe *fr;
	unsigned int nr;

	/* No field, or no room left for one: no lookup. */
	if (s->nr == LT_REC_STACK_NONE || f->overflow)
		return;
	nr = min_t(u32, s->nr, LT_REC_STACK_DEPTH);
	fr = kcalloc(LT_REC_STACK_DEPTH, sizeof(*fr), GFP_KERNEL);
	if (!fr) {
		lt_fmt_str(f, key, "", 0);
		return;
	}
	lt_ustack_map(s, nr, fr);
	lt_ustack_name(fr, nr);
	lt_fmt_frames(f, key, nr, lt_uframe_name, fr, NULL, 0,
		      LT_USTACK_FIELD_MAX);
	kfree(fr);
}
EXPORT_SYMBOL_GPL(latency_tracker_fmt_ustack);
