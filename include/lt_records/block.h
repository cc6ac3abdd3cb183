/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/block.h - the block tracker's alert record (see record.h):
 * the device, start sector and length of the request, its operation, and
 * the cgroup v2 id of its blkcg (the cgroup its I/O is charged to, the
 * nearest one with the io controller enabled; 0 when it has none).
 */
#ifndef _LT_RECORDS_BLOCK_H
#define _LT_RECORDS_BLOCK_H

#include "record.h"

/* Operations of a request; the last one stands for all the others. */
#define LT_BLOCK_OPS(X)							\
	X(LT_BLOCK_OP_READ, "read")					\
	X(LT_BLOCK_OP_WRITE, "write")					\
	X(LT_BLOCK_OP_FLUSH, "flush")					\
	X(LT_BLOCK_OP_DISCARD, "discard")				\
	X(LT_BLOCK_OP_OTHER, "other")

enum lt_block_op {
	LT_BLOCK_OPS(LT_REC_ENUM_ID)
};

LT_REC_ENUM_NAME_FN(lt_block_op_name, LT_BLOCK_OPS)

#define LT_BLOCK_RECORD(X)						\
	X(DEV, dev)							\
	X(U64, sector)							\
	X(U32, nr_sectors)						\
	X(ENUM, op, lt_block_op_name)					\
	X(U64, cgroup)

#define LT_BLOCK_TRACE_ONLY(X)	/* none */

struct lt_block_record {
	LT_BLOCK_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_BLOCK_H */
