/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lfht_test_util.h - what the hash-table tests and the host benchmark share:
 * loops over the table and the key hash they all use.
 */
#ifndef _LFHT_TEST_UTIL_H
#define _LFHT_TEST_UTIL_H

#include <stdint.h>

#include "lfht.h"

/* Loops over the table (under rcu_read_lock()). */
#define lt_lfht_for_each(ht, iter, node)				\
	for (lt_lfht_first(ht, iter),					\
	     (node) = lt_lfht_iter_get_node(iter);			\
	     (node) != NULL;						\
	     lt_lfht_next(ht, iter), (node) = lt_lfht_iter_get_node(iter))

#define lt_lfht_for_each_duplicate(ht, hash, match, key, iter, node)	\
	for (lt_lfht_lookup(ht, hash, match, key, iter),		\
	     (node) = lt_lfht_iter_get_node(iter);			\
	     (node) != NULL;						\
	     lt_lfht_next_duplicate(ht, match, key, iter),		\
	     (node) = lt_lfht_iter_get_node(iter))

/* A 64-bit mixing hash (every bit of the key moves every bit of the hash). */
static inline unsigned long lt_test_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

#endif /* _LFHT_TEST_UTIL_H */
