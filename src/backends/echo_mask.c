/*
 * echo_mask.c - the hash of a host kernel's relocatable object with its
 * parameters' EV_PARAM echo masked (contract in echo_mask.h), which build.c
 * records as code.echo_neutral_sha256: two variants of one file whose
 * parameters reach nothing but the echo share it, and a parameter that
 * reaches the code, a label or any other data does not.
 *
 * The object is read by hand (no libelf), as base/elf.c reads shared
 * objects, and never as text: the echo is found by the descriptor's symbol
 * and the relocation at its compiled_params field, which is where the
 * linker and the runner find it, so what an asm() writes (a `#NO_APP`, an
 * escape, a macro that switches sections: red team 130) is bytes in some
 * section like any other, hashed as gas assembled them.  The one thing cut
 * out is the echo string itself, and only where nothing else can reach it
 * by a symbol or a relocation; everything else the linker reads is hashed
 * entry by entry, with section and symbol numbers renumbered past what was
 * cut, so that a value of another length (or one long enough for gcc to put
 * it in .rodata.str1.8 alone) changes nothing else.
 */
#include "backends/echo_mask.h"

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* compiled_params' offset in struct ev_kernel_desc (kernels/evident_kernel.h:
 * two uint32_t, then seven pointers, the last one compiled_params) */
#define DESC_PARAMS_OFF 56
#define DESC_SIZE 64
#define DESC_SYMBOL "ev_kernel_desc_"

struct obj {
	const unsigned char *b;
	size_t len;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh;
	size_t shnum;
	size_t symtab; /* its section, 0 if none */
	Elf64_Sym *sym;
	size_t nsym;
	size_t strtab; /* the symbols' names' section */
};

/* The echo, where it can be masked. */
struct echo {
	int on;
	size_t sec;         /* the section it lies in */
	uint64_t p, end;    /* the bytes cut out: the string, its NUL, its padding */
	uint64_t str;       /* where the string starts */
	size_t rsec, ridx;  /* the descriptor's relocation: its section and entry */
	int drop;           /* the section held nothing else: it is left out */
	size_t *secmap;     /* old section index -> new */
	size_t nsec;        /* its length */
	size_t *symmap;     /* old symbol index -> new, SIZE_MAX for one left out */
};

/* Does the shared object so[0, len) map a byte of a section that is not
 * code (SHF_ALLOC without SHF_EXECINSTR) in an executable segment, as
 * `-z noseparate-code` maps .rodata?  1 also where it cannot be read. */
static int maps_data_executable(const unsigned char *so, size_t len)
{
	Elf64_Ehdr eh;
	if (len < sizeof(eh))
		return 1;
	memcpy(&eh, so, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
	    eh.e_phoff > len || (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > len - eh.e_phoff || eh.e_shoff > len ||
	    (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > len - eh.e_shoff)
		return 1;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, so + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		for (size_t k = 1; k < eh.e_shnum; k++) {
			Elf64_Shdr sh;
			memcpy(&sh, so + eh.e_shoff + k * sizeof(sh), sizeof(sh));
			if (!(sh.sh_flags & SHF_ALLOC) || (sh.sh_flags & SHF_EXECINSTR) || sh.sh_size == 0)
				continue;
			if (sh.sh_addr < ph.p_vaddr + ph.p_memsz && ph.p_vaddr < sh.sh_addr + sh.sh_size)
				return 1;
		}
	}
	return 0;
}

static int in_file(const struct obj *o, uint64_t off, uint64_t size)
{
	return off <= o->len && size <= o->len - off;
}

/* The NUL-terminated name at off of string-table section s, or NULL. */
static const char *name_at(const struct obj *o, size_t s, uint64_t off)
{
	if (s == 0 || s >= o->shnum || o->sh[s].sh_type == SHT_NOBITS || off >= o->sh[s].sh_size)
		return NULL;
	const char *t = (const char *)o->b + o->sh[s].sh_offset;
	return memchr(t + off, '\0', o->sh[s].sh_size - off) ? t + off : NULL;
}

static int obj_read(struct obj *o, const unsigned char *b, size_t len, char **why)
{
	memset(o, 0, sizeof(*o));
	o->b = b;
	o->len = len;
	if (len < sizeof(o->eh)) {
		*why = xstrdup("shorter than an ELF header");
		return -1;
	}
	memcpy(&o->eh, b, sizeof(o->eh));
	const Elf64_Ehdr *eh = &o->eh;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_REL) {
		*why = xstrdup("not a 64-bit little-endian relocatable ELF object");
		return -1;
	}
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 || eh->e_shstrndx >= eh->e_shnum ||
	    !in_file(o, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr))) {
		*why = xstrfmt("%u section headers of %u bytes at %llu: not a table this reads", eh->e_shnum,
			       eh->e_shentsize, (unsigned long long)eh->e_shoff);
		return -1;
	}
	o->shnum = eh->e_shnum;
	o->sh = xcalloc(o->shnum, sizeof(*o->sh));
	memcpy(o->sh, b + eh->e_shoff, o->shnum * sizeof(*o->sh));
	for (size_t i = 0; i < o->shnum; i++) {
		const Elf64_Shdr *s = &o->sh[i];
		if (s->sh_type != SHT_NOBITS && !in_file(o, s->sh_offset, s->sh_size)) {
			*why = xstrfmt("section %zu runs off the file", i);
			return -1;
		}
		if ((i == 0 && s->sh_type != SHT_NULL) || s->sh_type == SHT_REL || s->sh_type == SHT_SYMTAB_SHNDX ||
		    s->sh_type == SHT_DYNSYM) {
			*why = xstrfmt("section %zu is of type %u, which this does not read", i, s->sh_type);
			return -1;
		}
		if (s->sh_link >= o->shnum) {
			*why = xstrfmt("section %zu links to no section", i);
			return -1;
		}
		if (s->sh_type == SHT_SYMTAB) {
			if (o->symtab || s->sh_entsize != sizeof(Elf64_Sym) || s->sh_link == 0 ||
			    o->sh[s->sh_link].sh_type != SHT_STRTAB) {
				*why = xstrdup("a second or unreadable symbol table");
				return -1;
			}
			o->symtab = i;
		}
		if (s->sh_type == SHT_RELA && (s->sh_entsize != sizeof(Elf64_Rela) || s->sh_info >= o->shnum)) {
			*why = xstrfmt("relocation section %zu is not one this reads", i);
			return -1;
		}
	}
	if (o->symtab) {
		o->strtab = o->sh[o->symtab].sh_link;
		o->nsym = o->sh[o->symtab].sh_size / sizeof(Elf64_Sym);
		o->sym = xcalloc(o->nsym + 1, sizeof(*o->sym));
		memcpy(o->sym, b + o->sh[o->symtab].sh_offset, o->nsym * sizeof(*o->sym));
		for (size_t k = 0; k < o->nsym; k++)
			if (o->sym[k].st_shndx == SHN_XINDEX ||
			    (o->sym[k].st_shndx < SHN_LORESERVE && o->sym[k].st_shndx >= o->shnum) ||
			    (o->sym[k].st_name && !name_at(o, o->strtab, o->sym[k].st_name))) {
				*why = xstrfmt("symbol %zu names no section or no string", k);
				return -1;
			}
	}
	for (size_t i = 1; i < o->shnum; i++)
		if (o->sh[i].sh_type == SHT_RELA && (o->sh[i].sh_link != o->symtab || !o->symtab)) {
			*why = xstrfmt("relocation section %zu uses no symbol table this reads", i);
			return -1;
		}
	if (o->symtab)
		for (size_t i = 1; i < o->shnum; i++) {
			if (o->sh[i].sh_type != SHT_RELA)
				continue;
			size_t n = o->sh[i].sh_size / sizeof(Elf64_Rela);
			for (size_t k = 0; k < n; k++) {
				Elf64_Rela r;
				memcpy(&r, b + o->sh[i].sh_offset + k * sizeof(r), sizeof(r));
				if (ELF64_R_SYM(r.r_info) >= o->nsym) {
					*why = xstrfmt("relocation %zu of section %zu names no symbol", k, i);
					return -1;
				}
			}
		}
	return 0;
}

static Elf64_Rela rela_at(const struct obj *o, size_t s, size_t k)
{
	Elf64_Rela r;
	memcpy(&r, o->b + o->sh[s].sh_offset + k * sizeof(r), sizeof(r));
	return r;
}

static size_t rela_count(const struct obj *o, size_t s)
{
	return o->sh[s].sh_type == SHT_RELA ? o->sh[s].sh_size / sizeof(Elf64_Rela) : 0;
}

/* The machine's relocation for a 64-bit absolute address, 0 if unknown. */
static uint32_t abs64_type(int machine)
{
	return machine == EM_X86_64 ? R_X86_64_64 : machine == EM_AARCH64 ? R_AARCH64_ABS64 : 0;
}

/* Is the relocation r against symbol s of the machine an absolute address,
 * whose target is the symbol's value plus the addend exactly?  (A
 * PC-relative one's target lies past it by the distance from its field to
 * the instruction's end, which only decoding the code would tell.) */
static int absolute_type(int machine, uint32_t type)
{
	if (machine == EM_X86_64)
		return type == R_X86_64_64 || type == R_X86_64_32 || type == R_X86_64_32S;
	return machine == EM_AARCH64 && (type == R_AARCH64_ABS64 || type == R_AARCH64_ABS32);
}

/* Does relocation r (against symbol s) reach a byte of [p, end)?  Its
 * symbol's own value, or its target: the value plus the addend, exactly
 * for an absolute address, and for any other type the bytes from there to
 * where an instruction's end can lie past its field (x86-64: a 4-byte
 * field and an immediate of up to 4 after it, 9 bytes; `leaq
 * .rodata+P(%rip)` is `.rodata + P-4`), 16 on another machine. */
static int reaches(int machine, const Elf64_Sym *s, const Elf64_Rela *r, uint64_t p, uint64_t end)
{
	if (ELF64_ST_TYPE(s->st_info) != STT_SECTION && s->st_value >= p && s->st_value < end)
		return 1;
	/* in __int128: an addend of -4 before the section's start is not a
	 * target past its end */
	__int128 a = (__int128)s->st_value + r->r_addend;
	__int128 w = absolute_type(machine, ELF64_R_TYPE(r->r_info)) ? 1 : machine == EM_X86_64 ? 9 : 16;
	return a < (__int128)end && a + w > (__int128)p;
}

/* Find the echo (echo_mask.h's conditions); e->on stays 0 where any fails. */
static void find_echo(const struct obj *o, const unsigned char *so, size_t so_len, struct echo *e)
{
	uint32_t abs64 = abs64_type(o->eh.e_machine);
	if (!o->symtab || !abs64 || (so && maps_data_executable(so, so_len)))
		return;
	size_t d = 0;
	for (size_t k = 1; k < o->nsym; k++) {
		const char *n = name_at(o, o->strtab, o->sym[k].st_name);
		if (n && !strcmp(n, DESC_SYMBOL)) {
			if (d)
				return; /* two: neither */
			d = k;
		}
	}
	const Elf64_Sym *ds = &o->sym[d];
	if (!d || ELF64_ST_TYPE(ds->st_info) != STT_OBJECT || ds->st_shndx == 0 || ds->st_shndx >= o->shnum ||
	    ds->st_size < DESC_SIZE)
		return;
	int found = 0;
	for (size_t i = 1; i < o->shnum; i++) {
		if (o->sh[i].sh_type != SHT_RELA || o->sh[i].sh_info != ds->st_shndx)
			continue;
		for (size_t k = 0; k < rela_count(o, i); k++) {
			Elf64_Rela r = rela_at(o, i, k);
			if (r.r_offset != ds->st_value + DESC_PARAMS_OFF)
				continue;
			if (found++ || ELF64_R_TYPE(r.r_info) != abs64)
				return;
			e->rsec = i;
			e->ridx = k;
		}
	}
	if (!found)
		return;
	Elf64_Rela dr = rela_at(o, e->rsec, e->ridx);
	const Elf64_Sym *t = &o->sym[ELF64_R_SYM(dr.r_info)];
	if (t->st_shndx == 0 || t->st_shndx >= o->shnum)
		return;
	size_t S = t->st_shndx;
	const Elf64_Shdr *sh = &o->sh[S];
	uint64_t strings = SHF_MERGE | SHF_STRINGS;
	/* the linker places input sections by name: .rodata.* goes to
	 * .rodata, where a `.text.x` with these flags would go to .text */
	const char *sn = name_at(o, o->eh.e_shstrndx, sh->sh_name);
	if (!sn || (strcmp(sn, ".rodata") && strncmp(sn, ".rodata.", 8)))
		return;
	/* a mergeable string section (gcc -O1 and up), or plain read-only
	 * data (-O0) */
	int merge = (sh->sh_flags & strings) == strings && sh->sh_entsize == 1;
	if (sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_ALLOC) || (!merge && (sh->sh_flags & strings)) ||
	    (sh->sh_flags & (SHF_WRITE | SHF_EXECINSTR | SHF_GROUP | SHF_TLS)))
		return;
	uint64_t p = t->st_value + (uint64_t)dr.r_addend;
	if (p >= sh->sh_size)
		return;
	const unsigned char *c = o->b + sh->sh_offset;
	/* a whole string: one that runs into it would read its bytes */
	if (p > 0 && c[p - 1] != '\0')
		return;
	const unsigned char *nul = memchr(c + p, '\0', sh->sh_size - p);
	if (!nul)
		return;
	uint64_t end = (uint64_t)(nul - c) + 1, str = p;
	uint64_t al = sh->sh_addralign > 1 ? sh->sh_addralign : 1;
	if (p % al == 0) {
		/* the zero padding to the section's alignment goes with it:
		 * after it, or where it is the section's last string, before
		 * it (back to the NUL of the string before) */
		uint64_t pad = end % al ? end + (al - end % al) : end;
		pad = pad < sh->sh_size ? pad : sh->sh_size;
		while (end < pad && c[end] == '\0')
			end++;
		if (end == sh->sh_size)
			for (uint64_t k = 1; k < al && p >= 2 && c[p - 1] == '\0' && c[p - 2] == '\0'; k++)
				p--;
	}
	/* in plain data nothing may lie behind it: the linker moves no
	 * reference there by the string it points into, as it does in a
	 * merged section */
	if (!merge && end != sh->sh_size)
		return;
	int drop = sh->sh_size - (end - p) == 0;
	/* nothing else reaches the string: no relocation applies to its
	 * section, no other refers into it, no symbol in it is seen outside */
	for (size_t i = 1; i < o->shnum; i++) {
		if (o->sh[i].sh_type == SHT_RELA && o->sh[i].sh_info == S)
			return;
		if (o->sh[i].sh_type == SHT_GROUP)
			return; /* a group could hold the section; none in a plain kernel */
		for (size_t k = 0; k < rela_count(o, i); k++) {
			if (i == e->rsec && k == e->ridx)
				continue;
			Elf64_Rela r = rela_at(o, i, k);
			const Elf64_Sym *u = &o->sym[ELF64_R_SYM(r.r_info)];
			if (u->st_shndx == S && (drop || reaches(o->eh.e_machine, u, &r, p, end)))
				return;
		}
	}
	for (size_t k = 1; k < o->nsym; k++) {
		const Elf64_Sym *u = &o->sym[k];
		if (u->st_shndx != S || ELF64_ST_TYPE(u->st_info) == STT_SECTION)
			continue;
		int inside = u->st_value >= p && u->st_value < end;
		if ((inside || drop) && (ELF64_ST_BIND(u->st_info) != STB_LOCAL || !inside))
			return;
	}
	if (drop)
		for (size_t i = 1; i < o->shnum; i++)
			if (o->sh[i].sh_link == S || ((o->sh[i].sh_flags & SHF_INFO_LINK) && o->sh[i].sh_info == S) ||
			    o->eh.e_shstrndx == S)
				return;
	e->on = 1;
	e->sec = S;
	e->p = p;
	e->str = str;
	e->end = end;
	e->drop = drop;
}

/* The position v in the echo's section after the cut; *inside set where v
 * lies in the cut (then the offset into it). */
static uint64_t cut_pos(const struct echo *e, uint64_t v, int *inside)
{
	*inside = e->on && v >= e->p && v < e->end;
	if (!e->on || v < e->p)
		return v;
	return *inside ? v - e->p : v - (e->end - e->p);
}

/* Does a section other than the symbol table link to section i (a table
 * whose contents are offsets into it, read whole then)? */
static int linked_but_by_symtab(const struct obj *o, size_t i)
{
	for (size_t k = 1; k < o->shnum; k++)
		if (k != o->symtab && o->sh[k].sh_link == i)
			return 1;
	return 0;
}

static void put64(struct strbuf *b, uint64_t v)
{
	unsigned char x[8];
	for (int i = 0; i < 8; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	strbuf_add(b, x, 8);
}

static void put_str(struct strbuf *b, const char *s)
{
	s = s ? s : "";
	put64(b, strlen(s));
	strbuf_add(b, s, strlen(s));
}

static uint64_t sec_new(const struct echo *e, uint64_t i)
{
	return e->secmap && i < e->nsec ? e->secmap[i] : i;
}

/* The parameter whose "NAME=" starts at b[i] (at the string's start or
 * after a space), or NULL. */
static const struct param *echo_at(const struct param *params, size_t n_params, const char *b, size_t n, size_t i)
{
	if (i && b[i - 1] != ' ')
		return NULL;
	for (size_t k = 0; k < n_params; k++) {
		size_t l = strlen(params[k].name);
		if (l && i + l < n && !memcmp(b + i, params[k].name, l) && b[i + l] == '=')
			return &params[k];
	}
	return NULL;
}

/* The echo b[0, n) with each parameter's value replaced by "?": a value
 * runs to the next " P=" of a parameter P or to the string's end. */
static void masked_echo(struct strbuf *out, const struct param *params, size_t n_params, const char *b, size_t n)
{
	for (size_t i = 0; i < n;) {
		const struct param *p = echo_at(params, n_params, b, n, i);
		if (!p) {
			strbuf_addch(out, b[i++]);
			continue;
		}
		size_t v = i + strlen(p->name) + 1, j = v;
		while (j < n && !(b[j] == ' ' && echo_at(params, n_params, b, n, j + 1)))
			j++;
		strbuf_add(out, b + i, v - i);
		strbuf_addch(out, '?');
		i = j;
	}
}

int echo_mask_object(const unsigned char *obj, size_t len, const unsigned char *so, size_t so_len,
		     const struct param *params, size_t n_params, char hex[SHA256_HEX_LEN + 1], char **why)
{
	struct obj o;
	struct echo e = { 0 };
	*why = NULL;
	hex[0] = '\0';
	if (obj_read(&o, obj, len, why) < 0) {
		free(o.sh);
		free(o.sym);
		return -1;
	}
	find_echo(&o, so, so_len, &e);
	e.secmap = xcalloc(o.shnum, sizeof(size_t));
	e.nsec = o.shnum;
	for (size_t i = 0, n = 0; i < o.shnum; i++)
		e.secmap[i] = e.on && e.drop && i == e.sec ? SIZE_MAX : n++;
	e.symmap = xcalloc(o.nsym + 1, sizeof(size_t));
	/* left out: the symbols of the echo's section that only the echo's
	 * relocation uses (its section symbol, a label on the string) */
	size_t *used = xcalloc(o.nsym + 1, sizeof(size_t));
	for (size_t i = 1; i < o.shnum; i++)
		for (size_t k = 0; k < rela_count(&o, i); k++)
			if (!(e.on && i == e.rsec && k == e.ridx))
				used[ELF64_R_SYM(rela_at(&o, i, k).r_info)]++;
	size_t first_global_new = o.symtab ? o.sh[o.symtab].sh_info : 0, kept = 0;
	for (size_t k = 0; k < o.nsym; k++) {
		const Elf64_Sym *u = &o.sym[k];
		int gone = k && e.on && u->st_shndx == e.sec && !used[k] &&
			   (ELF64_ST_TYPE(u->st_info) == STT_SECTION || (u->st_value >= e.p && u->st_value < e.end));
		e.symmap[k] = gone ? SIZE_MAX : kept++;
		if (gone && k < o.sh[o.symtab].sh_info)
			first_global_new--;
	}

	struct sha256_ctx *h = sha256_begin();
	struct strbuf b = STRBUF_INIT;
	/* the ELF header but its layout (offsets, counts, sizes) */
	strbuf_add(&b, o.eh.e_ident, EI_NIDENT);
	put64(&b, o.eh.e_type);
	put64(&b, o.eh.e_machine);
	put64(&b, o.eh.e_version);
	put64(&b, o.eh.e_entry);
	put64(&b, o.eh.e_flags);
	put64(&b, sec_new(&e, o.eh.e_shstrndx));
	sha256_update_field(h, "ehdr", b.buf, b.len);
	for (size_t i = 0; i < o.shnum; i++) {
		const Elf64_Shdr *s = &o.sh[i];
		if (e.secmap[i] == SIZE_MAX)
			continue;
		const unsigned char *c = s->sh_type == SHT_NOBITS ? NULL : o.b + s->sh_offset;
		int cut = e.on && i == e.sec;
		/* the string tables are hashed through the names that use them */
		int names = s->sh_type == SHT_STRTAB && !(s->sh_flags & SHF_ALLOC) &&
			    (i == o.strtab || i == o.eh.e_shstrndx) && !linked_but_by_symtab(&o, i);
		uint64_t size = cut     ? s->sh_size - (e.end - e.p)
				: names ? 0
				: i == o.symtab ? kept * sizeof(Elf64_Sym)
						: s->sh_size;
		strbuf_reset(&b);
		put_str(&b, name_at(&o, o.eh.e_shstrndx, s->sh_name));
		put64(&b, s->sh_type);
		put64(&b, s->sh_flags);
		put64(&b, s->sh_addr);
		put64(&b, s->sh_addralign);
		put64(&b, s->sh_entsize);
		put64(&b, size);
		put64(&b, sec_new(&e, s->sh_link));
		put64(&b, i == o.symtab						  ? first_global_new
			  : s->sh_type == SHT_RELA || (s->sh_flags & SHF_INFO_LINK) ? sec_new(&e, s->sh_info)
										  : s->sh_info);
		sha256_update_field(h, "section", b.buf, b.len);
		strbuf_reset(&b);
		if (s->sh_type == SHT_NOBITS) {
			/* no contents */
		} else if (i == o.symtab) {
			for (size_t k = 0; k < o.nsym; k++) {
				const Elf64_Sym *u = &o.sym[k];
				if (e.symmap[k] == SIZE_MAX)
					continue;
				int inside = 0;
				uint64_t v = u->st_value;
				if (e.on && u->st_shndx == e.sec && ELF64_ST_TYPE(u->st_info) != STT_SECTION)
					v = cut_pos(&e, v, &inside);
				put_str(&b, u->st_name ? name_at(&o, o.strtab, u->st_name) : "");
				put64(&b, u->st_info);
				put64(&b, u->st_other);
				put64(&b, sec_new(&e, u->st_shndx));
				put64(&b, (uint64_t)inside);
				put64(&b, v);
				put64(&b, u->st_size);
			}
		} else if (s->sh_type == SHT_RELA) {
			for (size_t k = 0; k < rela_count(&o, i); k++) {
				Elf64_Rela r = rela_at(&o, i, k);
				size_t si = ELF64_R_SYM(r.r_info);
				const Elf64_Sym *u = &o.sym[si];
				put64(&b, r.r_offset);
				put64(&b, ELF64_R_TYPE(r.r_info));
				if (e.on && i == e.rsec && k == e.ridx) {
					/* the echo, its values masked */
					const char *str = (const char *)o.b + o.sh[e.sec].sh_offset + e.str;
					struct strbuf m = STRBUF_INIT;
					masked_echo(&m, params, n_params, str, strlen(str));
					put_str(&b, "echo");
					put_str(&b, m.buf ? m.buf : "");
					strbuf_release(&m);
					continue;
				}
				put64(&b, e.symmap[si]);
				uint64_t a = (uint64_t)r.r_addend;
				if (e.on && u->st_shndx == e.sec && ELF64_ST_TYPE(u->st_info) == STT_SECTION) {
					int inside;
					a = cut_pos(&e, u->st_value + a, &inside) - u->st_value;
				}
				put64(&b, a);
			}
		} else if (names) {
			/* through the names that use it */
		} else if (cut) {
			strbuf_add(&b, c, e.p);
			strbuf_add(&b, c + e.end, s->sh_size - e.end);
		} else {
			strbuf_add(&b, c, s->sh_size);
		}
		sha256_update_field(h, "contents", b.buf ? b.buf : "", b.len);
	}
	static const char kind[] = "echo-masked relocatable object";
	sha256_update_field(h, "mask", e.on ? "echo" : "none", 4);
	sha256_update_field(h, "kind", kind, strlen(kind));
	sha256_end(h, hex);
	strbuf_release(&b);
	free(e.secmap);
	free(e.symmap);
	free(used);
	free(o.sh);
	free(o.sym);
	return 0;
}
