/*
 * modwatch.h - the sealed planner's watch over the device code its own
 * process loads, against the device code the sealed worker will load.
 *
 * A sealed kernel's timing worker never runs the kernel's host code: it
 * loads the cubins of the object's .nv_fatbin section for its GPU (read as
 * data: seal.h seal_fatbin_images, seal_fatbin_machine_code) and replays
 * the planner's plan by function name.  The planner, which does run the
 * host code, ran whatever modules that code had the driver load, and its
 * seed outputs are what the checker judged.  Red team 74's reg_slow sent
 * nvcc's registration call to its own function, which registered an image
 * held in .rodata that defines the same kernel name: the planner ran the
 * slow image, the worker replayed the honest one (ok at 7.71 us on an H200
 * against 16.30 us in its own process).
 *
 * So the planner hands modwatch_loaded to the harness (evc_api
 * watch_modules: CUPTI's resource callback, CUPTI_CBID_RESOURCE_MODULE_-
 * LOADED) before the kernel object is opened, and each module the driver
 * loads from then on is digested as it loads: SHA-256 of the bytes it was
 * given (an ELF cubin to the extent its headers give, so that padding
 * after it does not count) and the names its symbol table defines.  After
 * the capture, modwatch_check requires of every module that defines a
 * function of the plan, where a cubin the worker loads defines it too,
 * that it be byte for byte a cubin the worker loads (or, for a payload
 * that is not a bare cubin, an entry of the object's .nv_fatbin), and
 * says what it compared either way, for the planner's log.
 *
 * What it cannot tell it passes, and says so (a false refusal of an
 * honest kernel costs more than the hole): a payload neither ELF nor
 * fatbin whose copy was not kept, a fatbin entry not readable here, a
 * function no module seen defines (no CUPTI, or a callback that never
 * came), and a function no cubin of the worker defines (PTX the driver
 * compiled: the worker's load refuses the plan anyway).  The watch runs in
 * the kernel's own process, so code that rewrites the planner's memory or
 * turns CUPTI's callbacks off can blind it (red team 71's class).
 */
#ifndef EVIDENT_MODWATCH_H
#define EVIDENT_MODWATCH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* Bytes of loaded payloads kept as copies (for a mismatch's first
 * differing byte, and to search a payload no symbol table describes). */
#define MODWATCH_COPY_MAX ((size_t)256 << 20)

/* One piece of device code: a cubin, or a fatbin entry's text. */
struct modwatch_code {
	uint32_t module;      /* loaded: CUPTI's module id; file: the entry's index */
	int part;             /* loaded: -1 the payload as given, k >= 0 entry k of a fatbin payload */
	int elf;              /* 1: an ELF whose headers and symbol table read here */
	int partial;          /* elf: a name its symbol table gives was not read (past its table, past MW_MAX_NAMES) */
	uint32_t magic;       /* its first 4 bytes, little-endian (0 when fewer) */
	size_t bytes;         /* as given */
	size_t hashed;        /* the bytes hashed: the ELF's extent, else all */
	char sha[SHA256_HEX_LEN + 1];
	char **names;         /* elf: the symbols it defines (not sections, not files) */
	int n_names;
	unsigned char *copy;  /* loaded: the hashed bytes, or NULL past MODWATCH_COPY_MAX */
};

struct modwatch {
	pthread_mutex_t mu;
	long long loads;               /* modwatch_loaded calls */
	int fatbins;                   /* of them, fatbin payloads */
	int unreadable;                /* fatbin entries of loaded payloads not readable here */
	size_t copied;
	struct modwatch_code *loaded;  /* in load order */
	int n_loaded, cap_loaded;
	struct modwatch_code *worker;  /* the cubins the sealed worker loads */
	int n_worker;
	struct modwatch_code *file;    /* every readable entry of the object's .nv_fatbin */
	int n_file;
};

void modwatch_init(struct modwatch *mw);
void modwatch_release(struct modwatch *mw);

/*
 * The object's device code (its .nv_fatbin images, seal_fatbin_images)
 * and what the worker loads of it (seal_fatbin_machine_code's images for
 * this GPU), digested.  Returns the worker's cubins' count.
 */
int modwatch_file(struct modwatch *mw, const void *const *images, const size_t *image_bytes, int n_images,
		  const void *const *machine, const size_t *machine_bytes, int n_machine);

/*
 * The harness's callback (evident_cuda.h watch_modules): module `id` was
 * loaded from payload[0..bytes) (an ELF cubin, a fatbin, or anything
 * else the driver hands on).  Thread-safe; copies what it keeps.
 */
void modwatch_loaded(void *mw, uint32_t id, const void *payload, size_t bytes);

/*
 * The check over the functions a plan names (names[n_names]): 0 when
 * every module seen that defines one of them is device code the worker
 * loads, 1 with the reason in *why (malloc'd) naming the module (id,
 * bytes, sha256) and the function.  log gets a line per module and per
 * function, what was compared (prefixed by `when`).
 */
int modwatch_check(struct modwatch *mw, const char *const *names, int n_names, const char *when, struct strbuf *log,
		   char **why);

/*
 * An ELF image's extent from its headers (the furthest of its section and
 * program headers and every section's and segment's bytes in the file)
 * and the names its symbol tables define (any symbol type but section and
 * file, in a defined section), each once.  The extent, or 0 when f[0..n)
 * is no 64-bit little-endian ELF whose headers lie inside it; *names
 * (free with seal_names_free) may be NULL; *partial (may be NULL) is 1 when
 * a symbol's name was not read (past its table, unterminated there, or
 * past MW_MAX_NAMES names): the names are then not all the module defines.
 */
size_t modwatch_elf(const unsigned char *f, size_t n, char ***names, int *n_names, int *partial);

#endif /* EVIDENT_MODWATCH_H */
