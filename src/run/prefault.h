/*
 * Page faults taken ahead, in a thread of their own.  A buffer that grows
 * as it is written (the kept text of dedup.c) pays a fault for the first
 * write of each page (a page zeroed, and on a virtual machine often an
 * exit to the host): the owner asks for a range it will soon grow into,
 * and it is faulted in (MADV_POPULATE_WRITE) while the owner does other
 * work.  Nothing is written; a range never faulted in is faulted in on
 * first use, as without this.
 *
 * Requests are kept in slots, one per caller-chosen number, each for one
 * range at a time; several buffers can share the thread, each with slots
 * of its own, if they ask and drop from one thread at a time.  The thread
 * starts with the first request.
 */
#ifndef PREFAULT_H
#define PREFAULT_H

#include <stddef.h>

struct prefault;

/*
 * Slots 0 to nslots - 1; NULL where the system cannot fault memory in
 * ahead.  If the thread cannot be started, requests are ignored.
 */
struct prefault *prefault_new(size_t nslots);

/*
 * Fault in the whole pages of addr[0..len) ahead, in place of slot's
 * range; none if there is no whole page in it.
 */
void	prefault_ask(struct prefault *, size_t slot, void *addr, size_t len);

/*
 * Forget the slot's range, waiting if it is being faulted in: before the
 * memory is moved or unmapped.
 */
void	prefault_drop(struct prefault *, size_t slot);

/* Stop the thread. */
void	prefault_free(struct prefault *);

#endif
