/*
 * elf.c - an ELF object's dynamic section, read as data (elf.h): what a
 * host box must copy for a kernel's object to load, and whether the
 * object names a loader hook, without running a byte of it.
 */
#include "base/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

#define ELF_MAX_PHDRS 512
#define ELF_MAX_DYN 8192
#define ELF_MAX_STRTAB ((uint64_t)16 << 20)

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* The file's ELF header and program headers into *eh and *ph (malloc'd,
 * the caller frees); 0, or -1 with *why set. */
static int read_headers(int fd, Elf64_Ehdr *eh, Elf64_Phdr **ph, char **why)
{
	*ph = NULL;
	if (read_at(fd, eh, sizeof(*eh), 0) < 0 || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		*why = xstrdup("not a 64-bit little-endian ELF file");
		return -1;
	}
	if (eh->e_phnum == 0)
		return 0;
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum > ELF_MAX_PHDRS) {
		*why = xstrfmt("%u program headers of %u bytes: not an object this reads", eh->e_phnum,
			       eh->e_phentsize);
		return -1;
	}
	*ph = xcalloc(eh->e_phnum, sizeof(**ph));
	if (read_at(fd, *ph, eh->e_phnum * sizeof(**ph), eh->e_phoff) < 0) {
		free(*ph);
		*ph = NULL;
		*why = xstrdup("cannot read its program headers");
		return -1;
	}
	return 0;
}

/*
 * The name at index idx of the string table of strsz bytes at file offset
 * off (malloc'd), as the whole table read into memory and ended by a NUL
 * past its last byte gives it: up to its NUL, or to the table's end.  A
 * name at a time, not the table: a box's every library was read whole for
 * a handful of names (libstdc++'s table is 302 KB, libcrypto's 113 KB),
 * in every box the runner opened.  NULL when the bytes cannot be read.
 */
static char *read_name(int fd, uint64_t off, uint64_t strsz, uint64_t idx)
{
	size_t left = (size_t)(strsz - idx), want = left < 256 ? left : 256;
	for (;;) {
		char *b = xmalloc(want + 1);
		if (read_at(fd, b, want, off + idx) < 0) {
			free(b);
			return NULL;
		}
		b[want] = 0;
		if (memchr(b, 0, want) || want == left)
			return b;
		free(b);
		want = want * 2 < left ? want * 2 : left;
	}
}

static void add_hook(struct elf_dyn *d, const char *tag, const char *name)
{
	if (!d->hook)
		d->hook = xstrfmt("%s %s", tag, name);
}

int elf_dyn_read(const char *path, struct elf_dyn *d, char **why)
{
	memset(d, 0, sizeof(*d));
	*why = NULL;
	/* never blocks: a FIFO or a device named as a library is no object */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		*why = xstrfmt("cannot open it: %s", strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		*why = xstrdup("not a regular file");
		return -1;
	}
	Elf64_Ehdr eh;
	Elf64_Phdr *ph = NULL;
	Elf64_Dyn *dyn = NULL;
	char *str = NULL;
	size_t n_needed = 0;
	int rc = -1;
	if (read_headers(fd, &eh, &ph, why) < 0)
		goto out;
	d->machine = eh.e_machine;
	d->type = eh.e_type;
	d->needed = xcalloc(1, sizeof(char *));
	const Elf64_Phdr *pd = NULL;
	for (int i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			pd = &ph[i];
	if (!pd) { /* static: nothing to load */
		rc = 0;
		goto out;
	}
	size_t nd = pd->p_filesz / sizeof(Elf64_Dyn);
	if (nd == 0 || nd > ELF_MAX_DYN) {
		*why = xstrfmt("a dynamic section of %zu entries", nd);
		goto out;
	}
	dyn = xcalloc(nd, sizeof(*dyn));
	if (read_at(fd, dyn, nd * sizeof(*dyn), pd->p_offset) < 0) {
		*why = xstrdup("cannot read its dynamic section");
		goto out;
	}
	uint64_t strtab = 0, strsz = 0;
	int has_strtab = 0;
	for (size_t k = 0; k < nd && dyn[k].d_tag != DT_NULL; k++) {
		if (dyn[k].d_tag == DT_FLAGS_1)
			d->pie = (dyn[k].d_un.d_val & DF_1_PIE) != 0;
		if (dyn[k].d_tag == DT_STRTAB) {
			strtab = dyn[k].d_un.d_ptr;
			has_strtab = 1;
		} else if (dyn[k].d_tag == DT_STRSZ) {
			strsz = dyn[k].d_un.d_val;
		}
	}
	if (!has_strtab || strsz == 0 || strsz > ELF_MAX_STRTAB) {
		*why = xstrdup("no readable string table in its dynamic section");
		goto out;
	}
	/* the table's address, as a place in the file: the loaded segment
	 * that holds it */
	uint64_t off = 0;
	int found = 0;
	for (int i = 0; i < eh.e_phnum && !found; i++)
		if (ph[i].p_type == PT_LOAD && strtab >= ph[i].p_vaddr && strsz <= ph[i].p_filesz &&
		    strtab - ph[i].p_vaddr <= ph[i].p_filesz - strsz) {
			off = strtab - ph[i].p_vaddr + ph[i].p_offset;
			found = 1;
		}
	if (!found) {
		*why = xstrdup("its string table lies in no loaded segment");
		goto out;
	}
	/* the table whole within the file, as a read of it all needs */
	if (off > (uint64_t)st.st_size || strsz > (uint64_t)st.st_size - off) {
		*why = xstrdup("cannot read its string table");
		goto out;
	}
	for (size_t k = 0; k < nd && dyn[k].d_tag != DT_NULL; k++) {
		int64_t tag = dyn[k].d_tag;
		if (tag != DT_NEEDED && tag != DT_RUNPATH && tag != DT_RPATH && tag != DT_AUDIT && tag != DT_DEPAUDIT &&
		    tag != DT_AUXILIARY && tag != DT_FILTER && tag != DT_SONAME)
			continue;
		if (dyn[k].d_un.d_val >= strsz) {
			*why = xstrdup("a name outside its string table");
			goto out;
		}
		free(str);
		str = read_name(fd, off, strsz, dyn[k].d_un.d_val);
		if (!str) {
			*why = xstrdup("cannot read its string table");
			goto out;
		}
		const char *s = str;
		switch (tag) {
		case DT_NEEDED:
			d->needed = xrealloc(d->needed, (n_needed + 2) * sizeof(char *));
			d->needed[n_needed++] = xstrdup(s);
			d->needed[n_needed] = NULL;
			break;
		case DT_RUNPATH:
			if (!d->runpath)
				d->runpath = xstrdup(s);
			break;
		case DT_RPATH:
			if (!d->rpath)
				d->rpath = xstrdup(s);
			break;
		case DT_SONAME:
			if (!d->soname)
				d->soname = xstrdup(s);
			break;
		case DT_AUDIT:
			add_hook(d, "DT_AUDIT", s);
			break;
		case DT_DEPAUDIT:
			add_hook(d, "DT_DEPAUDIT", s);
			break;
		case DT_AUXILIARY:
			add_hook(d, "DT_AUXILIARY", s);
			break;
		default:
			add_hook(d, "DT_FILTER", s);
			break;
		}
	}
	rc = 0;
out:
	if (rc < 0)
		elf_dyn_release(d);
	free(ph);
	free(dyn);
	free(str);
	close(fd);
	return rc;
}

void elf_dyn_release(struct elf_dyn *d)
{
	for (char **n = d->needed; n && *n; n++)
		free(*n);
	free(d->needed);
	free(d->runpath);
	free(d->rpath);
	free(d->soname);
	free(d->hook);
	memset(d, 0, sizeof(*d));
}

char *elf_interp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	Elf64_Ehdr eh;
	Elf64_Phdr *ph = NULL;
	char *why = NULL, *r = NULL;
	if (read_headers(fd, &eh, &ph, &why) == 0) {
		for (int i = 0; i < eh.e_phnum && !r; i++) {
			if (ph[i].p_type != PT_INTERP || ph[i].p_filesz < 2 || ph[i].p_filesz >= 4096)
				continue;
			r = xcalloc(ph[i].p_filesz + 1, 1);
			if (read_at(fd, r, ph[i].p_filesz, ph[i].p_offset) < 0 || r[0] != '/' ||
			    strlen(r) + 1 != ph[i].p_filesz) {
				free(r);
				r = NULL;
			}
		}
	}
	free(why);
	free(ph);
	close(fd);
	return r;
}

char *elf_refuse_hooks(const char *path)
{
	struct elf_dyn d;
	char *why = NULL, *r = NULL;
	if (elf_dyn_read(path, &d, &why) == 0 && d.hook)
		r = xstrfmt("'%s' names a loader hook (%s): a loader runs that library's code before any check, "
			    "in whatever process asks it to load or list the object; drop -Wl,--audit, --depaudit, "
			    "-f or -F from the spec's flags",
			    path, d.hook);
	/* a library named by its path: the box would copy that path (red
	 * team 54's host_file named /etc/shadow, and the loader, matching
	 * the name against the kernel's own soname, never opened it); or by
	 * the object's own soname: the loader takes the object itself and
	 * never opens the file, which the box would still have copied (red
	 * team 55's core: a root-only core dump named "core") */
	for (char **n = d.needed; !r && n && *n; n++) {
		if (strchr(*n, '/'))
			r = xstrfmt("'%s' names a library by its path ('%s'): a kernel's libraries are named by "
				    "their names, found where the loader looks (-lNAME, with -L and -Wl,-rpath)",
				    path, *n);
		/* or by a name the loader expands ($PLATFORM, $LIB, $ORIGIN: red
		 * team 57's dstneeded took another file than the box found) */
		else if (strchr(*n, '$'))
			r = xstrfmt("'%s' needs a library by a name the loader expands ('%s'): name it plainly",
				    path, *n);
		else if (d.soname && !strcmp(*n, d.soname))
			r = xstrfmt("'%s' needs a library by its own soname ('%s'): that library is never loaded; "
				    "drop -Wl,-soname from the spec's flags, or name another library",
				    path, *n);
	}
	if (why == NULL)
		elf_dyn_release(&d);
	free(why);
	return r;
}

/* Each GNU build-id note's descriptor among the notes at buf[off .. off +
 * size) (a PT_NOTE segment's bytes; align 4 or 8) overwritten by fill's
 * nfill bytes, repeated (zeros where fill is NULL); how many notes. */
static int set_build_ids(unsigned char *buf, uint64_t off, uint64_t size, uint64_t align, const unsigned char *fill,
			 size_t nfill)
{
	uint64_t a = align == 8 ? 8 : 4, p = 0;
	int n = 0;
	while (size - p >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		memcpy(&nh, buf + off + p, sizeof(nh));
		uint64_t name = p + sizeof(nh), nsz = ((uint64_t)nh.n_namesz + a - 1) / a * a;
		uint64_t desc = name + nsz, dsz = ((uint64_t)nh.n_descsz + a - 1) / a * a;
		if (nsz > size - name || nh.n_descsz > size - desc)
			return n;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(buf + off + name, "GNU", 4)) {
			for (uint64_t i = 0; i < nh.n_descsz; i++)
				buf[off + desc + i] = fill ? fill[i % nfill] : 0;
			n++;
		}
		if (dsz > size - desc)
			return n;
		p = desc + dsz;
	}
	return n;
}

/* The ELF header and program headers of the file's bytes buf[0 .. len)
 * into *eh and *ph (malloc'd, the caller frees), every PT_LOAD and
 * PT_NOTE checked to lie in the file; 0, or -1 with *why set (malloc'd). */
static int parse_phdrs(const unsigned char *buf, uint64_t len, Elf64_Ehdr *eh, Elf64_Phdr **ph, char **why)
{
	*ph = NULL;
	if (len < sizeof(*eh)) {
		*why = xstrdup("not a 64-bit little-endian ELF file");
		return -1;
	}
	memcpy(eh, buf, sizeof(*eh));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		*why = xstrdup("not a 64-bit little-endian ELF file");
		return -1;
	}
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 || eh->e_phnum > ELF_MAX_PHDRS ||
	    eh->e_phoff > len || (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > len - eh->e_phoff) {
		*why = xstrfmt("%u program headers of %u bytes at %llu: not an object this reads", eh->e_phnum,
			       eh->e_phentsize, (unsigned long long)eh->e_phoff);
		return -1;
	}
	*ph = xcalloc(eh->e_phnum, sizeof(**ph));
	memcpy(*ph, buf + eh->e_phoff, eh->e_phnum * sizeof(**ph));
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *q = &(*ph)[i];
		if ((q->p_type == PT_LOAD || q->p_type == PT_NOTE) &&
		    (q->p_offset > len || q->p_filesz > len - q->p_offset)) {
			*why = xstrfmt("program header %d (type %u) lies outside the file", i, q->p_type);
			free(*ph);
			*ph = NULL;
			return -1;
		}
	}
	return 0;
}

int elf_load_sha256(const char *path, char hex[SHA256_HEX_LEN + 1], char **why)
{
	*why = NULL;
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		*why = xstrfmt("cannot read it: %s", strerror(errno));
		return -1;
	}
	unsigned char *buf = (unsigned char *)sb.buf;
	uint64_t len = sb.len;
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	int rc = -1;
	if (parse_phdrs(buf, len, &eh, &ph, why) < 0)
		goto out;
	int n_load = 0;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_NOTE)
			set_build_ids(buf, ph[i].p_offset, ph[i].p_filesz, ph[i].p_align, NULL, 0);
		else if (ph[i].p_type == PT_LOAD)
			n_load++;
	}
	if (!n_load) {
		*why = xstrdup("no loaded segment");
		free(ph);
		goto out;
	}
	/* the section table's place and size, as the loaded copy of the
	 * header holds them: no loader reads them */
	memset(buf + offsetof(Elf64_Ehdr, e_shoff), 0, sizeof(eh.e_shoff));
	memset(buf + offsetof(Elf64_Ehdr, e_shnum), 0, sizeof(eh.e_shnum));
	memset(buf + offsetof(Elf64_Ehdr, e_shstrndx), 0, sizeof(eh.e_shstrndx));
	struct sha256_ctx *c = sha256_begin();
	char h[96];
	int k = snprintf(h, sizeof(h), "elf-load/1 type %u machine %u entry %llu", eh.e_type, eh.e_machine,
			 (unsigned long long)eh.e_entry);
	sha256_update_field(c, "header", h, (size_t)k);
	sha256_update_field(c, "phdrs", ph, eh.e_phnum * sizeof(*ph));
	for (int i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		k = snprintf(h, sizeof(h), "vaddr %llu memsz %llu flags %u", (unsigned long long)ph[i].p_vaddr,
			     (unsigned long long)ph[i].p_memsz, ph[i].p_flags);
		sha256_update_field(c, "load", h, (size_t)k);
		sha256_update_field(c, "bytes", buf + ph[i].p_offset, ph[i].p_filesz);
	}
	sha256_end(c, hex);
	free(ph);
	rc = 0;
out:
	strbuf_release(&sb);
	return rc;
}

int elf_seal_build_ids(const char *path, int *n, char **why)
{
	*why = NULL;
	*n = 0;
	char hex[SHA256_HEX_LEN + 1];
	if (elf_load_sha256(path, hex, why) < 0) {
		/* a file that is no ELF object at all has no build id to seal
		 * (a test's stand-in compiler); one that says it is and is not
		 * read here is refused: the loader might map what this never saw */
		unsigned char magic[SELFMAG];
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		int elf = fd >= 0 && read_at(fd, magic, SELFMAG, 0) == 0 && !memcmp(magic, ELFMAG, SELFMAG);
		if (fd >= 0)
			close(fd);
		if (fd < 0 || elf)
			return -1;
		free(*why);
		*why = NULL;
		return 0;
	}
	unsigned char fill[SHA256_HEX_LEN / 2];
	for (size_t i = 0; i < sizeof(fill); i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		fill[i] = (unsigned char)v;
	}
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		*why = xstrfmt("cannot read it: %s", strerror(errno));
		return -1;
	}
	unsigned char *buf = (unsigned char *)sb.buf;
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	int rc = -1;
	if (parse_phdrs(buf, sb.len, &eh, &ph, why) < 0)
		goto out;
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		*why = xstrfmt("cannot open it to write: %s", strerror(errno));
		free(ph);
		goto out;
	}
	rc = 0;
	for (int i = 0; i < eh.e_phnum && rc == 0; i++) {
		if (ph[i].p_type != PT_NOTE || !set_build_ids(buf, ph[i].p_offset, ph[i].p_filesz, ph[i].p_align,
							      fill, sizeof(fill)))
			continue;
		(*n)++;
		if (pwrite(fd, buf + ph[i].p_offset, ph[i].p_filesz, (off_t)ph[i].p_offset) != (ssize_t)ph[i].p_filesz) {
			*why = xstrfmt("cannot write its build id: %s", strerror(errno));
			rc = -1;
		}
	}
	if (close(fd) < 0 && rc == 0) {
		*why = xstrfmt("cannot write its build id: %s", strerror(errno));
		rc = -1;
	}
	free(ph);
out:
	strbuf_release(&sb);
	return rc;
}
