/*
 * modwatch.c - the sealed planner's watch over the modules its process
 * loads (modwatch.h has the why): each module the driver loads is digested
 * in CUPTI's callback (SHA-256 over the bytes it was given, an ELF cubin's
 * to its headers' extent, and the names its symbol table defines), and
 * after the capture every module that defines a function of the plan must
 * be, byte for byte, device code the sealed worker loads from the object's
 * .nv_fatbin.  What it compared goes to the planner's log either way, so
 * that one run on a GPU says whether the watch saw what it was meant to.
 */
#include "backends/modwatch.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "backends/seal.h"

#define MW_FATBIN_MAGIC 0xBA55ED50u
/* names one ELF's symbol tables give at most (the rest not read) */
#define MW_MAX_NAMES 65536

void modwatch_init(struct modwatch *mw)
{
	memset(mw, 0, sizeof(*mw));
	pthread_mutex_init(&mw->mu, NULL);
}

static void code_release(struct modwatch_code *c)
{
	seal_names_free(c->names, c->n_names);
	free(c->copy);
}

void modwatch_release(struct modwatch *mw)
{
	for (int i = 0; i < mw->n_loaded; i++)
		code_release(&mw->loaded[i]);
	for (int i = 0; i < mw->n_worker; i++)
		code_release(&mw->worker[i]);
	for (int i = 0; i < mw->n_file; i++)
		code_release(&mw->file[i]);
	free(mw->loaded);
	free(mw->worker);
	free(mw->file);
	pthread_mutex_destroy(&mw->mu);
	memset(mw, 0, sizeof(*mw));
}

/* [off, off + len) inside n bytes */
static int inside(uint64_t off, uint64_t len, size_t n)
{
	return off <= n && len <= n - off;
}

static void names_add(char ***names, int *n, int *cap, const char *s, size_t len)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*names = xrealloc(*names, (size_t)*cap * sizeof(char *));
	}
	char *d = xmalloc(len + 1);
	memcpy(d, s, len);
	d[len] = 0;
	(*names)[(*n)++] = d;
}

size_t modwatch_elf(const unsigned char *f, size_t n, char ***names, int *n_names, int *partial)
{
	char **nm = NULL;
	int nn = 0, cap = 0, part = 0;
	if (partial)
		*partial = 0;
	if (names)
		*names = NULL;
	if (n_names)
		*n_names = 0;
	if (!f || n < sizeof(Elf64_Ehdr) || memcmp(f, ELFMAG, SELFMAG) || f[EI_CLASS] != ELFCLASS64 ||
	    f[EI_DATA] != ELFDATA2LSB)
		return 0;
	Elf64_Ehdr eh;
	memcpy(&eh, f, sizeof(eh));
	uint64_t ext = sizeof(eh);
	if (eh.e_shnum) {
		if (eh.e_shentsize != sizeof(Elf64_Shdr) || !inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), n))
			return 0;
		if (eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > ext)
			ext = eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr);
	}
	if (eh.e_phnum) {
		if (eh.e_phentsize != sizeof(Elf64_Phdr) || !inside(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), n))
			return 0;
		if (eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > ext)
			ext = eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr);
		for (unsigned k = 0; k < eh.e_phnum; k++) {
			Elf64_Phdr ph;
			memcpy(&ph, f + eh.e_phoff + k * sizeof(Elf64_Phdr), sizeof(ph));
			if (!ph.p_filesz)
				continue;
			if (!inside(ph.p_offset, ph.p_filesz, n))
				return 0;
			if (ph.p_offset + ph.p_filesz > ext)
				ext = ph.p_offset + ph.p_filesz;
		}
	}
	for (unsigned k = 0; k < eh.e_shnum; k++) {
		Elf64_Shdr sh;
		memcpy(&sh, f + eh.e_shoff + k * sizeof(Elf64_Shdr), sizeof(sh));
		if (sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		if (!inside(sh.sh_offset, sh.sh_size, n))
			return 0;
		if (sh.sh_offset + sh.sh_size > ext)
			ext = sh.sh_offset + sh.sh_size;
	}
	/* the names its symbol tables define */
	for (unsigned k = 0; k < eh.e_shnum && names; k++) {
		Elf64_Shdr sh, st;
		memcpy(&sh, f + eh.e_shoff + k * sizeof(Elf64_Shdr), sizeof(sh));
		if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || sh.sh_link >= eh.e_shnum)
			continue;
		memcpy(&st, f + eh.e_shoff + sh.sh_link * sizeof(Elf64_Shdr), sizeof(st));
		if (st.sh_type != SHT_STRTAB || !st.sh_size)
			continue;
		const char *str = (const char *)f + st.sh_offset;
		for (uint64_t s = 0; s + sizeof(Elf64_Sym) <= sh.sh_size; s += sizeof(Elf64_Sym)) {
			Elf64_Sym sym;
			memcpy(&sym, f + sh.sh_offset + s, sizeof(sym));
			int type = ELF64_ST_TYPE(sym.st_info);
			if (type == STT_SECTION || type == STT_FILE || sym.st_shndx == SHN_UNDEF || !sym.st_name)
				continue;
			/* a name this reading cannot take whole (past its table,
			 * unterminated there, or past MW_MAX_NAMES) leaves the
			 * module's names partial: red team 77's padded cubin put
			 * its kernel's name at symbol 65,544, and the driver,
			 * which reads on, found it (modwatch_check then searches
			 * the module's bytes) */
			if (nn >= MW_MAX_NAMES || sym.st_name >= st.sh_size) {
				part = 1;
				continue;
			}
			size_t len = strnlen(str + sym.st_name, (size_t)(st.sh_size - sym.st_name));
			if (len && len < st.sh_size - sym.st_name)
				names_add(&nm, &nn, &cap, str + sym.st_name, len);
			else
				part = 1;
		}
	}
	if (names) {
		*names = nm;
		*n_names = nn;
	}
	if (partial)
		*partial = part;
	return (size_t)ext;
}

/* Digest text[0..n) into c (module, part and copy set by the caller). */
static void code_digest(struct modwatch_code *c, const unsigned char *text, size_t n)
{
	c->bytes = n;
	c->magic = 0;
	if (text && n >= 4)
		memcpy(&c->magic, text, 4);
	size_t ext = text ? modwatch_elf(text, n, &c->names, &c->n_names, &c->partial) : 0;
	c->elf = ext > 0;
	c->hashed = ext ? ext : text ? n : 0;
	sha256_hex(text ? (const void *)text : (const void *)"", c->hashed, c->sha);
}

struct code_list {
	struct modwatch_code **v;
	int *n, cap;
	uint32_t module;
	int part;          /* -2: file entries (index as module), else the first part's number */
	struct modwatch *mw;
	int copy_always;
};

static int list_add(const unsigned char *text, size_t n, void *ctx)
{
	struct code_list *l = ctx;
	if (*l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		*l->v = xrealloc(*l->v, (size_t)l->cap * sizeof(**l->v));
	}
	struct modwatch_code *c = &(*l->v)[*l->n];
	memset(c, 0, sizeof(*c));
	c->module = l->part == -2 ? (uint32_t)*l->n : l->module;
	c->part = l->part == -2 ? -1 : l->part++;
	code_digest(c, text, n);
	/* the whole payload as given (the driver may read past the extent
	 * the headers give: red team 77's names past their table) */
	if (l->copy_always || (l->mw && n <= MODWATCH_COPY_MAX - l->mw->copied)) {
		c->copy = xmalloc(n ? n : 1);
		if (n)
			memcpy(c->copy, text, n);
		if (!l->copy_always)
			l->mw->copied += n;
	}
	(*l->n)++;
	return 0;
}

int modwatch_file(struct modwatch *mw, const void *const *images, const size_t *image_bytes, int n_images,
		  const void *const *machine, const size_t *machine_bytes, int n_machine)
{
	struct code_list f = { &mw->file, &mw->n_file, 0, 0, -2, mw, 1 };
	seal_fatbin_each_text(images, image_bytes, n_images, 0, list_add, &f, NULL);
	struct code_list w = { &mw->worker, &mw->n_worker, 0, 0, -2, mw, 1 };
	seal_fatbin_each_text(machine, machine_bytes, n_machine, 2, list_add, &w, NULL);
	return mw->n_worker;
}

void modwatch_loaded(void *arg, uint32_t id, const void *payload, size_t bytes)
{
	struct modwatch *mw = arg;
	const unsigned char *p = payload;
	pthread_mutex_lock(&mw->mu);
	mw->loads++;
	struct code_list l = { &mw->loaded, &mw->n_loaded, mw->cap_loaded, id, -1, mw, 0 };
	uint32_t magic = 0;
	if (p && bytes >= 4)
		memcpy(&magic, p, 4);
	if (!p)
		bytes = 0;
	if (magic == MW_FATBIN_MAGIC && bytes >= 16) {
		/* a fatbin (should the driver hand one on): each entry it can
		 * read, the image's own size where it fits in what was given */
		uint16_t hsize;
		uint64_t fsize;
		memcpy(&hsize, p + 6, 2);
		memcpy(&fsize, p + 8, 8);
		size_t len = hsize >= 16 && fsize <= bytes && hsize <= bytes - fsize ? hsize + (size_t)fsize : bytes;
		const void *im[1] = { p };
		int before = mw->n_loaded;
		mw->fatbins++;
		l.part = 0;
		seal_fatbin_each_text(im, &len, 1, 0, list_add, &l, &mw->unreadable);
		if (mw->n_loaded == before) {
			l.part = -1;
			list_add(p, bytes, &l);
		}
	} else {
		list_add(p, bytes, &l);
	}
	mw->cap_loaded = l.cap;
	pthread_mutex_unlock(&mw->mu);
}

/* ---- the check ------------------------------------------------------------ */

static int ident_char(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
	       ch == '$' || ch == '.';
}

/* name, as a whole identifier, anywhere in t[0..n) */
static int mentions(const unsigned char *t, size_t n, const char *name)
{
	size_t len = strlen(name);
	for (const unsigned char *p = t; len && p + len <= t + n;) {
		const unsigned char *q = memmem(p, (size_t)(t + n - p), name, len);
		if (!q)
			return 0;
		if ((q == t || !ident_char(q[-1]) || q[-1] == '.') && (q + len == t + n || !ident_char(q[len])))
			return 1;
		p = q + 1;
	}
	return 0;
}

/* Does c define name?  1 yes, 0 no, -1 cannot tell (no symbol table read
 * and no copy kept). */
static int code_defines(const struct modwatch_code *c, const char *name)
{
	if (c->elf) {
		for (int k = 0; k < c->n_names; k++)
			if (!strcmp(c->names[k], name))
				return 1;
		if (!c->partial)
			return 0;
	}
	/* not an ELF read whole here: its bytes (the name the driver looks
	 * up is in them, in a string table or a section's name) */
	if (!c->copy)
		return c->bytes ? -1 : 0;
	return mentions(c->copy, c->bytes, name);
}

static int same_code(const struct modwatch_code *a, const struct modwatch_code *b)
{
	return a->hashed == b->hashed && !strcmp(a->sha, b->sha);
}

static void code_say(struct strbuf *sb, const struct modwatch_code *c)
{
	strbuf_addf(sb, "module %u", c->module);
	if (c->part >= 0)
		strbuf_addf(sb, " (entry %d of a fatbin payload)", c->part);
	if (c->elf)
		strbuf_addf(sb, ", ELF, %zu bytes", c->bytes);
	else
		strbuf_addf(sb, ", not an ELF read here (magic 0x%08x), %zu bytes", c->magic, c->bytes);
	if (c->hashed != c->bytes)
		strbuf_addf(sb, " (%zu hashed: the ELF's extent)", c->hashed);
	strbuf_addf(sb, ", sha256 %s", c->sha);
}

/* The name of the section of ELF f[0..n) holding byte off, into out. */
static void section_at(const unsigned char *f, size_t n, size_t off, char *out, size_t outlen)
{
	snprintf(out, outlen, "no section");
	Elf64_Ehdr eh;
	if (!modwatch_elf(f, n, NULL, NULL, NULL))
		return;
	memcpy(&eh, f, sizeof(eh));
	if (off < sizeof(eh)) {
		snprintf(out, outlen, "the ELF header");
		return;
	}
	Elf64_Shdr strs = { 0 };
	if (eh.e_shstrndx < eh.e_shnum)
		memcpy(&strs, f + eh.e_shoff + eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof(strs));
	for (unsigned k = 0; k < eh.e_shnum; k++) {
		Elf64_Shdr sh;
		memcpy(&sh, f + eh.e_shoff + k * sizeof(Elf64_Shdr), sizeof(sh));
		if (sh.sh_type == SHT_NOBITS || off < sh.sh_offset || off - sh.sh_offset >= sh.sh_size)
			continue;
		const char *nm = sh.sh_name < strs.sh_size && strs.sh_type == SHT_STRTAB && strs.sh_offset < n
					 ? (const char *)f + strs.sh_offset + sh.sh_name
					 : NULL;
		size_t len = nm ? strnlen(nm, (size_t)(strs.sh_size - sh.sh_name)) : 0;
		snprintf(out, outlen, "section %u %.*s", k, (int)(len > 200 ? 200 : len), nm ? nm : "");
		return;
	}
	if (off >= eh.e_shoff && off - eh.e_shoff < (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr))
		snprintf(out, outlen, "the section headers");
	else if (off >= eh.e_phoff && off - eh.e_phoff < (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr))
		snprintf(out, outlen, "the program headers");
}

/* Where a and b first differ, said into sb (both copies kept). */
static void first_difference(struct strbuf *sb, const struct modwatch_code *a, const struct modwatch_code *b)
{
	if (!a->copy || !b->copy)
		return;
	size_t n = a->hashed < b->hashed ? a->hashed : b->hashed, i = 0;
	while (i < n && a->copy[i] == b->copy[i])
		i++;
	char where[256];
	section_at(b->copy, b->hashed, i, where, sizeof(where));
	if (i == n)
		strbuf_addf(sb, "; the shorter is a prefix of the other (%zu bytes the same)", n);
	else
		strbuf_addf(sb, "; first difference at byte %zu (%s of the worker's cubin)", i, where);
}

int modwatch_check(struct modwatch *mw, const char *const *names, int n_names, const char *when, struct strbuf *log,
		   char **why)
{
	int rc = 0;
	*why = NULL;
	pthread_mutex_lock(&mw->mu);
	strbuf_addf(log,
		    "modwatch (%s): %lld module load(s) seen since the kernel object was opened (%d fatbin payloads, "
		    "%d of their entries unreadable here); the sealed worker loads %d cubin(s):",
		    when, mw->loads, mw->fatbins, mw->unreadable, mw->n_worker);
	for (int k = 0; k < mw->n_worker; k++)
		strbuf_addf(log, " #%d %zu bytes sha256 %s", k, mw->worker[k].hashed, mw->worker[k].sha);
	strbuf_addf(log, "; the object's .nv_fatbin has %d readable entries; the plan's functions:", mw->n_file);
	for (int i = 0; i < n_names; i++)
		strbuf_addf(log, " %s", names[i]);
	strbuf_addch(log, '\n');
	for (int m = 0; m < mw->n_loaded; m++) {
		const struct modwatch_code *c = &mw->loaded[m];
		strbuf_addf(log, "modwatch (%s): ", when);
		code_say(log, c);
		int any = 0;
		for (int i = 0; i < n_names; i++) {
			int dup = 0;
			for (int j = 0; j < i && !dup; j++)
				dup = !strcmp(names[i], names[j]);
			int def = dup ? 0 : code_defines(c, names[i]);
			if (!def)
				continue;
			any = 1;
			if (def < 0) {
				/* what cannot be read is passed only as what the
				 * worker loads (red team 77 filled the copies' budget,
				 * then loaded PTX) */
				int same = 0;
				for (int k = 0; k < mw->n_worker && !same; k++)
					same = same_code(c, &mw->worker[k]);
				for (int k = 0; k < mw->n_file && !same; k++)
					same = same_code(c, &mw->file[k]);
				if (same) {
					strbuf_addf(log, "; may define %s: byte for byte device code the worker reads",
						    names[i]);
					continue;
				}
				strbuf_addf(log, "; may define %s: UNREAD\n", names[i]);
				if (!*why) {
					struct strbuf r = STRBUF_INIT;
					strbuf_addstr(&r, "the planner's process loaded ");
					code_say(&r, c);
					strbuf_addf(&r, ", which this watch could not read (no symbol table read whole, and "
							"past the %zu MiB of copies it keeps) and is no device code the sealed "
							"worker loads: whether it holds the plan's function %s is unknown: "
							"declare trust: host",
						    (size_t)(MODWATCH_COPY_MAX >> 20), names[i]);
					*why = strbuf_detach(&r, NULL);
					rc = 1;
				}
				continue;
			}
			int wk = -1;
			for (int k = 0; k < mw->n_worker && wk < 0; k++)
				if (code_defines(&mw->worker[k], names[i]) == 1)
					wk = k;
			if (wk < 0) {
				strbuf_addf(log, "; defines %s, which no cubin the worker loads defines (its load decides)",
					    names[i]);
				continue;
			}
			/* a bare cubin must be one the worker loads; an entry of
			 * another payload, one of the object's .nv_fatbin */
			int match = -1, bare = c->part < 0 && c->elf;
			for (int k = 0; bare && k < mw->n_worker && match < 0; k++)
				if (same_code(c, &mw->worker[k]))
					match = k;
			for (int k = 0; !bare && k < mw->n_file && match < 0; k++)
				if (same_code(c, &mw->file[k]))
					match = k;
			if (match >= 0) {
				strbuf_addf(log, "; defines %s: byte for byte %s #%d", names[i],
					    bare ? "the worker's cubin" : "the .nv_fatbin entry", match);
				continue;
			}
			const struct modwatch_code *w = &mw->worker[wk];
			struct strbuf r = STRBUF_INIT;
			strbuf_addstr(&r, "the planner's process (which ran the kernel's host code and whose seed outputs "
					  "were checked) loaded ");
			code_say(&r, c);
			strbuf_addf(&r,
				    ", which defines the plan's function %s, but is no device code the sealed worker "
				    "loads: it would run %s from its cubin #%d of the object's .nv_fatbin (%zu bytes, "
				    "sha256 %s)",
				    names[i], names[i], wk, w->hashed, w->sha);
			first_difference(&r, c, w);
			strbuf_addstr(&r, ". The replay would time other device code than the process ran (red team "
					  "74's reg_slow: an image registered by the object's own host code); let nvcc's "
					  "registration load the object's own device code, or declare trust: host");
			strbuf_addf(log, "; defines %s: MISMATCH\n", names[i]);
			strbuf_addf(log, "modwatch (%s): refused: %s", when, r.buf);
			if (!*why) {
				*why = xstrdup(r.buf);
				rc = 1;
			}
			strbuf_release(&r);
		}
		if (!any)
			strbuf_addstr(log, "; defines none of the plan's functions");
		strbuf_addch(log, '\n');
	}
	for (int i = 0; i < n_names; i++) {
		int seen = 0;
		for (int m = 0; m < mw->n_loaded && !seen; m++)
			seen = code_defines(&mw->loaded[m], names[i]) != 0;
		if (!seen)
			strbuf_addf(log, "modwatch (%s): no module load seen defines %s: not checked\n", when, names[i]);
	}
	pthread_mutex_unlock(&mw->mu);
	return rc;
}
