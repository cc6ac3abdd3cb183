/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_util.h - allocation helpers of the explain analysis: allocation
 * failure ends the program (a report cannot be made without memory),
 * growable arrays.
 */
#ifndef LT_EX_UTIL_H
#define LT_EX_UTIL_H

#include <stddef.h>

void *ex_xmalloc(size_t size);
void *ex_xcalloc(size_t n, size_t size);
void *ex_xrealloc(void *p, size_t size);
char *ex_xstrdup(const char *s);

/* Make room for one more element in a growable array: *arr holds *n used
 * elements of *cap allocated; returns a pointer to the zeroed new element
 * and increments *n. */
void *ex_push(void *arr_p, size_t *n, size_t *cap, size_t elem);

/* Bounded copy that always terminates dst. */
void ex_strlcpy(char *dst, const char *src, size_t size);

#define EX_PUSH(arr, n, cap) ((__typeof__(arr))ex_push(&(arr), &(n), &(cap), sizeof(*(arr))))

#endif /* LT_EX_UTIL_H */
