/*
 * san_prescan.c - linked into the sanitized build's executables only
 * (SAN=1: build-san/bin/evident, evident-worker and the unit test
 * binaries; the Makefile's SAN_OBJS), never into the plain tree: it makes
 * LeakSanitizer's check at exit cheap without changing what it checks.
 *
 * At a normal exit LeakSanitizer scans every writable segment of every
 * loaded module for pointers into the heap.  Most of those bytes are the
 * sanitizer runtimes' own .bss (libasan's 5.6 MB, libubsan's 6 MB), never
 * touched, so the scan's reads fault each 4 KiB page in, one exception
 * each: about 3,000 read faults and 50 ms of CPU at every exit of a
 * sanitized process on the project's VM, where a fault is dear (12 MiB of
 * untouched pages read: 44 ms; pre-mapped by MADV_POPULATE_READ: 19 ms;
 * under MADV_HUGEPAGE, the huge zero page: 0.4 ms).  The exit handler here
 * runs before LeakSanitizer's (atexit handlers run last registered first:
 * this one is registered by a constructor, after the sanitizer's own
 * initialisation registered its check) and maps those segments ahead of
 * the scan: each 2 MiB-aligned span of them may take the huge zero page
 * (MADV_HUGEPAGE; a span already holding a 4 KiB page keeps 4 KiB pages),
 * and the rest is pre-mapped in one call (MADV_POPULATE_READ: no page's
 * content changes, an untouched page reads as zeros as before).  The scan
 * then reads the same bytes at the same addresses, so it reports exactly
 * the leaks it reported before.  Nothing is done while the program runs
 * (the sanitized pass times kernels too), only once exit has begun; a
 * process that ends by _exit, exec or a signal never runs it, nor the
 * scan.  Either madvise may fail (an old kernel, a seccomp filter's
 * EPERM): the scan then faults the pages in as before.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#define HUGE_SPAN ((uintptr_t)2 << 20)

/* dl_iterate_phdr's callback: each writable loaded segment, as
 * LeakSanitizer's global scan walks them (lsan_common_linux.cpp) */
static int premap_module(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uintptr_t pg = *(const uintptr_t *)data;
	for (int j = 0; j < info->dlpi_phnum; j++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[j];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || !ph->p_memsz)
			continue;
		uintptr_t b = (info->dlpi_addr + ph->p_vaddr) & ~(pg - 1);
		uintptr_t e = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + pg - 1) & ~(pg - 1);
		uintptr_t hb = (b + HUGE_SPAN - 1) & ~(HUGE_SPAN - 1), he = e & ~(HUGE_SPAN - 1);
		if (he > hb)
			(void)madvise((void *)hb, he - hb, MADV_HUGEPAGE);
		(void)madvise((void *)b, e - b, MADV_POPULATE_READ);
	}
	return 0;
}

static void premap_at_exit(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t p = pg > 0 ? (uintptr_t)pg : 4096;
	dl_iterate_phdr(premap_module, &p);
}

__attribute__((constructor)) static void san_prescan_init(void)
{
	atexit(premap_at_exit);
}
#else
/* the plain tree never links this file (an empty unit is not ISO C) */
typedef int san_prescan_unused;
#endif
