/*
 * test_seal.c - the runner's half of the sealed path (backends/seal.h):
 * a planner's plan is checked field by field before a replay; a kernel
 * object's device code is read from its .nv_fatbin section as data,
 * searched for launches from the device (compressed entries too), and
 * only what the search read is loaded; the
 * fresh-input mixing bit (scramble.h) the harness and the checker share;
 * and the parent's rules for fresh-input keys (protocol.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/protocol.h"
#include "backends/scramble.h"
#include "backends/seal.h"

static const size_t IN[3] = { 1024, 1024, 1024 }, OUT[1] = { 1024 };

/* parse text; returns the parse's status, *why freed unless kept */
static int parse(const char *text, struct seal_plan *sp, char **why)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	assert_non_null(j);
	int rc = seal_plan_parse(j, IN, 3, OUT, 1, sp, why);
	json_decref(j);
	return rc;
}

#define KSTEP(relocs, args)                                                                              \
	"{\"version\": 1, \"scratch\": [4096], \"kernel\": \"k\", \"compiled_params\": \"B=1\", "          \
	"\"steps\": [{\"kind\": \"kernel\", \"name\": \"_Z1kPf\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], " \
	"\"cluster\": [0, 0, 0], \"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "     \
	"\"nonportable_cluster\": 0}, \"params\": [0, 8], \"relocs\": " relocs ", \"args\": \"" args "\"}]}"

#define ARGS16 "00000000000000000000000000000000"

/* a kernel step without parameters, programmatic (PDL) or not */
#define PSTEP(prog)                                                                                       \
	"{\"kind\": \"kernel\", \"name\": \"k\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], "               \
	"\"cluster\": [0, 0, 0], \"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "          \
	"\"nonportable_cluster\": 0, \"programmatic\": " prog "}, \"params\": [], \"relocs\": [], \"args\": \"\"}"

static void test_plan_accepted(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(KSTEP("[[0, 0, 0], [8, 16, 4000]]", ARGS16), &sp, &why), 0);
	assert_null(why);
	assert_int_equal(sp.plan.n_steps, 1);
	assert_int_equal(sp.plan.n_scratch, 1);
	const struct evc_step *s = &sp.plan.steps[0];
	assert_int_equal(s->kind, EVC_STEP_KERNEL);
	assert_string_equal(s->name, "_Z1kPf");
	assert_int_equal(s->grid[0], 4);
	assert_int_equal(s->args_bytes, 16);
	assert_int_equal(s->n_relocs, 2);
	assert_int_equal(s->relocs[1].buf, EVC_BUF_SCRATCH);
	assert_int_equal(s->relocs[1].off, 4000);
	assert_string_equal(sp.plan.compiled_params, "B=1");
	assert_int_equal(s->cooperative, 0);
	seal_plan_release(&sp);
	/* a cooperative launch stays one (rt3_coop) */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"kernel\", \"name\": "
			       "\"k\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"cluster\": [0, 0, 0], "
			       "\"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "
			       "\"nonportable_cluster\": 0, \"cooperative\": 1}, \"params\": [], \"relocs\": [], "
			       "\"args\": \"\"}]}",
			       &sp, &why),
			 0);
	assert_int_equal(sp.plan.steps[0].cooperative, 1);
	seal_plan_release(&sp);
	/* a programmatic dependent launch on the kernel before it stays one
	 * (red team 4, rt4_pdl) */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": [" PSTEP("0") ", " PSTEP("1") "]}", &sp,
			       &why),
			 0);
	assert_int_equal(sp.plan.steps[0].programmatic, 0);
	assert_int_equal(sp.plan.steps[1].programmatic, 1);
	seal_plan_release(&sp);
	/* memsets and copies inside their buffers */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": ["
			       "{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, \"elem\": 4, \"width\": 256, "
			       "\"height\": 1, \"pitch\": 0},"
			       "{\"kind\": \"copy\", \"dst\": [8, 512], \"src\": [0, 0], \"bytes\": 512}]}",
			       &sp, &why),
			 0);
	assert_int_equal(sp.plan.steps[1].kind, EVC_STEP_COPY);
	seal_plan_release(&sp);
}

#define SINIT(init) \
	"{\"version\": 1, \"scratch\": [4096, 64], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], " \
	"\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_init\": " init "}"

/* what init() left in the launch's own allocations travels with the plan
 * (rt3_init_table), inside those allocations only */
static void test_plan_scratch_init(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(SINIT("[[0, 8, \"00ff10\"], [1, 60, \"01020304\"]]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_inits, 2);
	assert_int_equal(sp.plan.inits[0].scratch, 0);
	assert_int_equal(sp.plan.inits[0].off, 8);
	assert_int_equal(sp.plan.inits[0].bytes, 3);
	assert_int_equal(sp.plan.inits[0].data[1], 0xff);
	assert_int_equal(sp.plan.inits[1].scratch, 1);
	assert_int_equal(sp.plan.inits[1].data[3], 4);
	seal_plan_release(&sp);
	/* none at all is a plan as before */
	assert_int_equal(parse(SINIT("[]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_inits, 0);
	seal_plan_release(&sp);
	static const char *bad[] = {
		SINIT("[[1, 62, \"01020304\"]]"),  /* past its buffer's end */
		SINIT("[[2, 0, \"01\"]]"),         /* no such scratch buffer */
		SINIT("[[0, 0, \"0g\"]]"),         /* not hex */
		SINIT("[[0, 0, \"012\"]]"),        /* half a byte */
		SINIT("[[0, 0]]"),                 /* no bytes */
		SINIT("{\"0\": 1}"),               /* not a list */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("scratch_init %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
	/* more than a plan may carry */
	size_t n = 2 * (EVC_PLAN_MAX_INIT + 8);
	char *big = xmalloc(n + 256), *hex = xmalloc(n + 1);
	memset(hex, '1', n);
	hex[n] = 0;
	snprintf(big, n + 256,
		 "{\"version\": 1, \"scratch\": [%d], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], "
		 "\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_init\": "
		 "[[0, 0, \"%s\"]]}",
		 2 * EVC_PLAN_MAX_INIT, hex);
	assert_int_equal(parse(big, &sp, &why), -1);
	assert_non_null(strstr(why, "at most"));
	free(why);
	free(big);
	free(hex);
}

#define SRELOC(relocs)                                                                                    \
	"{\"version\": 1, \"scratch\": [4096, 64], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], "        \
	"\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_init\": [], "           \
	"\"scratch_relocs\": " relocs "}"

/* pointers init() left in scratch, to scratch of the plan, are relocated
 * (red team 4, rt4_init_ptrtable); to tensors or outside, refused */
static void test_plan_scratch_relocs(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(SRELOC("[[1, 0, 16, 128], [1, 56, 17, 64], [0, 4088, 17, 0]]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_srelocs, 3);
	assert_int_equal(sp.plan.srelocs[0].scratch, 1);
	assert_int_equal(sp.plan.srelocs[0].at, 0);
	assert_int_equal(sp.plan.srelocs[0].buf, EVC_BUF_SCRATCH);
	assert_int_equal(sp.plan.srelocs[0].off, 128);
	assert_int_equal(sp.plan.srelocs[1].off, 64); /* one past the end of a buffer */
	seal_plan_release(&sp);
	/* a plan without any is a plan as before */
	assert_int_equal(parse(SINIT("[]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_srelocs, 0);
	seal_plan_release(&sp);
	static const char *bad[] = {
		SRELOC("[[1, 60, 16, 0]]"),    /* the word runs past its scratch buffer */
		SRELOC("[[0, 4, 16, 0]]"),     /* not aligned */
		SRELOC("[[2, 0, 16, 0]]"),     /* no such scratch buffer */
		SRELOC("[[0, 0, 0, 0]]"),      /* to an input: it moves every sample */
		SRELOC("[[0, 0, 8, 0]]"),      /* to an output */
		SRELOC("[[0, 0, 18, 0]]"),     /* to no scratch buffer */
		SRELOC("[[0, 0, 17, 65]]"),    /* past the end of its target */
		SRELOC("[[0, 0, 16]]"),        /* three fields */
		SRELOC("{\"0\": 1}"),          /* not a list */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("scratch_relocs %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
}

/* every way a planner could make the replay write or point elsewhere */
static void test_plan_refused(void **state)
{
	(void)state;
	static const char *bad[] = {
		/* a relocation past the parameter bytes, unaligned, or to no buffer */
		KSTEP("[[16, 0, 0]]", ARGS16),
		KSTEP("[[4, 0, 0]]", ARGS16),
		KSTEP("[[0, 3, 0]]", ARGS16),
		KSTEP("[[0, 17, 0]]", ARGS16),
		/* pointing past its buffer's end */
		KSTEP("[[0, 0, 1025]]", ARGS16),
		KSTEP("[[0, 16, 4097]]", ARGS16),
		/* parameter bytes that are not hex */
		KSTEP("[]", "zz000000000000000000000000000000"),
		/* a memset or copy past its buffer */
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 4, \"width\": 257, \"height\": 1, \"pitch\": 0}]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"copy\", \"dst\": [8, 1], \"src\": [0, 0], "
		"\"bytes\": 1024}]}",
		/* a 2D memset whose rows run past the buffer */
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 1, \"width\": 16, \"height\": 3, \"pitch\": 512}]}",
		/* rows whose span wraps 64 bits to the width alone: 2^24 rows of
		 * 2^40 bytes (red team 5, rt5_memset_wrap), or wraps to a span
		 * inside the buffer */
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 1, \"width\": 64, \"height\": 16777217, \"pitch\": 1099511627776}]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 4, \"width\": 4, \"height\": 549755813889, \"pitch\": 33554432}]}",
		/* no steps, another version, an unknown kind */
		"{\"version\": 1, \"scratch\": [], \"steps\": []}",
		"{\"version\": 2, \"scratch\": [], \"steps\": [{\"kind\": \"copy\"}]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"host_callback\"}]}",
		/* PDL on the first step (it would overlap the harness's work
		 * before the start event) or on a step after a memset */
		"{\"version\": 1, \"scratch\": [], \"steps\": [" PSTEP("1") "]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}, " PSTEP("1") "]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct seal_plan sp;
		char *why = NULL;
		if (parse(bad[i], &sp, &why) != -1)
			print_error("plan %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		assert_null(sp.steps); /* released */
	}
}

/* a minimal ELF64 object with a .nv_fatbin section of two images and padding */
static void write_elf(const char *path, int with_fatbin)
{
	unsigned char sec[96];
	memset(sec, 0, sizeof(sec));
	uint32_t magic = 0xBA55ED50u;
	uint16_t ver = 1, hs = 16;
	uint64_t fs = 8; /* image 0: 16 + 8 bytes */
	memcpy(sec, &magic, 4), memcpy(sec + 4, &ver, 2), memcpy(sec + 6, &hs, 2), memcpy(sec + 8, &fs, 8);
	fs = 16; /* image 1 at 32 (8 bytes of padding), 16 + 16 bytes */
	memcpy(sec + 32, &magic, 4), memcpy(sec + 36, &ver, 2), memcpy(sec + 38, &hs, 2), memcpy(sec + 40, &fs, 8);
	const char names[] = "\0.nv_fatbin\0.shstrtab\0.other\0";
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 2;
	size_t sec_at = sizeof(eh), names_at = sec_at + sizeof(sec), sh_at = names_at + sizeof(names);
	eh.e_shoff = sh_at;
	Elf64_Shdr sh[3];
	memset(sh, 0, sizeof(sh));
	sh[1].sh_name = with_fatbin ? 1 : 22;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_offset = sec_at;
	sh[1].sh_size = sizeof(sec);
	sh[2].sh_name = 11;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = names_at;
	sh[2].sh_size = sizeof(names);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(sec, sizeof(sec), 1, f);
	fwrite(names, sizeof(names), 1, f);
	fwrite(sh, sizeof(sh), 1, f);
	fclose(f);
}

static void test_fatbin_images(void **state)
{
	(void)state;
	char path[] = "/tmp/evident-test-seal-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_elf(path, 1);
	unsigned char *data = NULL;
	const void *im[4];
	size_t ib[4];
	char *why = NULL;
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), 2);
	assert_int_equal(ib[0], 24);
	assert_int_equal(ib[1], 32);
	assert_ptr_equal(im[1], data + 32);
	free(data);
	/* more images than the caller reads: refused, never a part of them
	 * (a shadow image ahead of a crowd of others would be read alone) */
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 1, &why), -1);
	assert_non_null(strstr(why, "more than 1 fatbin images"));
	free(why);
	/* an object without device code says so */
	write_elf(path, 0);
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), -1);
	assert_non_null(strstr(why, "no .nv_fatbin"));
	free(why);
	/* not an ELF at all */
	FILE *f = fopen(path, "w");
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), -1);
	assert_non_null(strstr(why, "not a 64-bit ELF"));
	free(why);
	unlink(path);
}

/* One fatbin image of one entry of `kind` with `flags` whose payload
 * holds text, into buf (at least 128 + strlen(text) bytes); its size. */
static size_t one_entry_image(unsigned char *buf, uint16_t kind, uint64_t flags, const char *text)
{
	uint64_t payload = (strlen(text) + 7) & ~(size_t)7, fs = 64 + payload;
	uint32_t magic = 0xBA55ED50u, ehs = 64;
	uint16_t ver = 1, hs = 16;
	memset(buf, 0, 16 + fs);
	memcpy(buf, &magic, 4), memcpy(buf + 4, &ver, 2), memcpy(buf + 6, &hs, 2), memcpy(buf + 8, &fs, 8);
	memcpy(buf + 16, &kind, 2), memcpy(buf + 20, &ehs, 4), memcpy(buf + 24, &payload, 8);
	memcpy(buf + 16 + 40, &flags, 8);
	memcpy(buf + 16 + 64, text, strlen(text));
	return 16 + fs;
}

/* device code that launches from the device is seen (rt3_cdp_tail): the
 * CDP2 syscall in a cubin, the runtime's name in PTX; not in device code
 * without it, and not where the entry is compressed (nothing to read) */
static void test_fatbin_device_launch(void **state)
{
	(void)state;
	unsigned char a[256], b[256];
	const void *im[2] = { a, b };
	size_t ib[2];
	const char *what = NULL;
	ib[0] = one_entry_image(a, 2, 0x11, "\x7f" "ELF .text._Z6kernelPf");
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 1, &what), 0);
	assert_null(what);
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "cnpv2LaunchDevice");
	ib[1] = one_entry_image(b, 1, 0x11, ".extern .func (.param .b32 r) cudaLaunchDeviceV2");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "cudaLaunchDevice");
	/* compressed: not readable here */
	ib[1] = one_entry_image(b, 2, 0x8011, "__cuda_syscall_cnpv2LaunchDeviceV2");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 0);
	/* an entry whose sizes run past the image ends the scan */
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	uint64_t huge = 1ull << 40;
	memcpy(b + 24, &huge, 8);
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 0);
}

/*
 * What the sealed worker loads is what the device-launch search read (red
 * team 4, rt4_cdp_packed): entries it cannot read - compressed beyond
 * the decompressors here, of another kind, or past an entry whose sizes
 * run off the image - are left out of the images, and an image left
 * empty is left out whole.
 */
static void test_fatbin_readable(void **state)
{
	(void)state;
	unsigned char a[512], b[256], *data = NULL;
	/* image a: an ELF entry, a "compressed" one that is no compressed
	 * stream, an entry of kind 4, then another ELF entry */
	size_t n0 = one_entry_image(a, 2, 0x11, "\x7f" "ELF first entry");
	unsigned char e[256];
	size_t ne = one_entry_image(e, 2, 0x8011, "this is no zstd frame at all");
	uint32_t packed = 16;
	uint64_t full = 64;
	memcpy(e + 16 + 16, &packed, 4), memcpy(e + 16 + 56, &full, 8);
	memcpy(a + n0, e + 16, ne - 16);
	size_t n1 = n0 + ne - 16;
	ne = one_entry_image(e, 4, 0x11, "some other kind");
	memcpy(a + n1, e + 16, ne - 16);
	size_t n2 = n1 + ne - 16;
	ne = one_entry_image(e, 1, 0x11, ".version 8.0 second entry");
	memcpy(a + n2, e + 16, ne - 16);
	size_t n3 = n2 + ne - 16;
	uint64_t fs = n3 - 16;
	memcpy(a + 8, &fs, 8);
	/* image b: only a compressed entry nothing here undoes */
	size_t nb = one_entry_image(b, 2, 0x8011, "__cuda_syscall_cnpv2LaunchDeviceV2");
	memcpy(b + 16 + 16, &packed, 4), memcpy(b + 16 + 56, &full, 8);

	const void *im[2] = { a, b }, *out[2];
	size_t ib[2] = { n3, nb }, ob[2];
	int dropped = -1;
	int k = seal_fatbin_readable(im, ib, 2, &data, out, ob, &dropped);
	assert_int_equal(k, 1);
	assert_int_equal(dropped, 3);
	/* the first and the last entry, in order, behind a's header */
	assert_int_equal(ob[0], 16 + (n0 - 16) + (n3 - n2));
	const unsigned char *o = out[0];
	uint64_t got;
	memcpy(&got, o + 8, 8);
	assert_int_equal(got, ob[0] - 16);
	assert_memory_equal(o + 16, a + 16, n0 - 16);
	assert_memory_equal(o + n0, a + n2, n3 - n2);
	free(data);

	/* every entry readable: the images as they were */
	ib[0] = one_entry_image(a, 2, 0x11, "\x7f" "ELF plain");
	k = seal_fatbin_readable(im, ib, 1, &data, out, ob, &dropped);
	assert_int_equal(k, 1);
	assert_int_equal(dropped, 0);
	assert_int_equal(ob[0], ib[0]);
	assert_memory_equal(out[0], a, ib[0]);
	free(data);

	/* an entry whose sizes run past the image: it and the rest left out */
	n0 = one_entry_image(a, 2, 0x11, "\x7f" "ELF kept");
	ne = one_entry_image(e, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	uint64_t huge = 1ull << 40;
	memcpy(e + 24, &huge, 8);
	memcpy(a + n0, e + 16, ne - 16);
	fs = n0 + ne - 32;
	memcpy(a + 8, &fs, 8);
	ib[0] = n0 + ne - 16;
	k = seal_fatbin_readable(im, ib, 1, &data, out, ob, &dropped);
	assert_int_equal(k, 1);
	assert_int_equal(dropped, 1);
	assert_int_equal(ob[0], n0);
	free(data);
}

/* rt4_cdp_packed.h's image (its quads, read from the fixture): one zstd-
 * compressed cubin that launches a grid from the device.  Where libzstd
 * loads, the search reads it and finds the launch; where not, the image
 * is not loaded at all - never loaded unsearched. */
static void test_fatbin_packed_device_launch(void **state)
{
	(void)state;
	FILE *f = fopen("tests/fixtures/adversary/cuda/rt4_cdp_packed.h", "r");
	assert_non_null(f);
	size_t cap = 1 << 16, n = 0;
	uint64_t *q = malloc(cap * 8);
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, ".quad ");
		if (!p)
			continue;
		for (p += 6; (p = strstr(p, "0x")); p += 2) {
			assert_true(n < cap);
			q[n++] = strtoull(p, NULL, 16);
		}
	}
	fclose(f);
	assert_true(n > 1000);
	const void *im[1] = { q }, *out[1];
	size_t ib[1] = { n * 8 }, ob[1];
	const char *what = NULL;
	int found = seal_fatbin_device_launch(im, ib, 1, &what);
	unsigned char *data = NULL;
	int dropped = -1;
	int k = seal_fatbin_readable(im, ib, 1, &data, out, ob, &dropped);
	if (found) {
		assert_string_equal(what, "cnpv2LaunchDevice");
		assert_int_equal(k, 1);
		assert_int_equal(dropped, 0);
	} else {
		print_message("libzstd did not load: the packed image is left out instead\n");
		assert_int_equal(k, 0);
		assert_int_equal(dropped, 1);
	}
	free(data);
	free(q);
}

/* the mixing bit: the same for the same (key, tensor, element), about half
 * ones, and another key or tensor gives another pattern */
static void test_mix_bit(void **state)
{
	(void)state;
	long ones = 0, same_key = 0, same_t = 0;
	for (uint64_t k = 0; k < 100000; k++) {
		int b = evs_mix_bit(0x1234, 0, k);
		assert_int_equal(b, evs_mix_bit(0x1234, 0, k));
		ones += b;
		same_key += b == evs_mix_bit(0x1235, 0, k);
		same_t += b == evs_mix_bit(0x1234, 1, k);
	}
	assert_true(ones > 49000 && ones < 51000);
	assert_true(same_key > 49000 && same_key < 51000);
	assert_true(same_t > 49000 && same_t < 51000);
}

static int keep_none(void *ctx, long long i, int last)
{
	(void)ctx, (void)i, (void)last;
	return 0;
}

/* a CUDA worker whose samples repeat a key (a hooked getrandom handing out
 * one key, so that inputs repeat and a memo answers) or carry none */
static void test_fresh_keys(void **state)
{
	(void)state;
	for (int variant = 0; variant < 2; variant++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		struct proto p;
		proto_init(&p);
		p.phase = "main";
		p.timed = 1;
		p.n_sets = 1;
		p.batch = 1;
		p.keep = keep_none;
		p.fresh_keys = 1;
		char hello[80];
		snprintf(hello, sizeof(hello), "{\"msg\":\"hello\",\"protocol\":%d,\"pid\":1}\n", PROTOCOL_VERSION);
		const char *pre[] = { hello, "{\"msg\":\"device\",\"info\":{}}\n", "{\"msg\":\"kernel\",\"name\":\"k\"}\n",
				      "{\"msg\":\"warmup\",\"samples\":0}\n",
				      "{\"msg\":\"sample\",\"i\":0,\"set\":0,\"us\":5.0,\"key\":77}\n" };
		for (size_t i = 0; i < 5; i++)
			assert_int_equal(proto_feed(&p, pre[i], strlen(pre[i]), fds[1]), 0);
		const char *out0 = "{\"msg\":\"output\",\"phase\":\"timed\",\"index\":0,\"bytes\":0}\n";
		assert_int_equal(proto_feed(&p, out0, strlen(out0), fds[1]), 0);
		const char *next = variant ? "{\"msg\":\"sample\",\"i\":1,\"set\":0,\"us\":5.0}\n"
					   : "{\"msg\":\"sample\",\"i\":1,\"set\":0,\"us\":5.0,\"key\":77}\n";
		assert_int_equal(proto_feed(&p, next, strlen(next), fds[1]), -1);
		assert_non_null(strstr(p.violation, variant ? "no fresh-input key" : "repeats the fresh-input key"));
		proto_release(&p);
		close(fds[0]);
		close(fds[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_accepted),
		cmocka_unit_test(test_plan_refused),
		cmocka_unit_test(test_plan_scratch_init),
		cmocka_unit_test(test_plan_scratch_relocs),
		cmocka_unit_test(test_fatbin_images),
		cmocka_unit_test(test_fatbin_device_launch),
		cmocka_unit_test(test_fatbin_readable),
		cmocka_unit_test(test_fatbin_packed_device_launch),
		cmocka_unit_test(test_mix_bit),
		cmocka_unit_test(test_fresh_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
