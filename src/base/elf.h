/*
 * elf.h - an ELF object's dynamic section, read as data: the libraries it
 * names (DT_NEEDED), where it looks for them (DT_RUNPATH, DT_RPATH), and
 * the entries that make a loader run code of the object's choosing before
 * any program does (DT_AUDIT, DT_DEPAUDIT, DT_AUXILIARY, DT_FILTER).
 *
 * Why not ask the loader: `LOADER --list OBJECT` loads the audit module an
 * object names and runs its la_version() before it lists anything, in the
 * process that asked, outside every box (red team 53's audit_escape: a
 * spec's -Wl,--audit made the kernel's own object its audit module, and
 * its code ran as root in the runner).  Reading the file runs nothing.
 */
#ifndef EVIDENT_ELF_H
#define EVIDENT_ELF_H

#include "base/util.h"

struct elf_dyn {
	char **needed;    /* DT_NEEDED names, NULL-terminated (may be empty) */
	char *runpath;    /* DT_RUNPATH, or NULL */
	char *rpath;      /* DT_RPATH, or NULL */
	char *hook;       /* the first of DT_AUDIT, DT_DEPAUDIT, DT_AUXILIARY, DT_FILTER ("DT_AUDIT libx.so"), or NULL */
	char *soname;     /* DT_SONAME, or NULL */
	int machine;      /* e_machine */
	int type;         /* e_type: ET_DYN for a shared object (or a position-independent program) */
	int pie;          /* DT_FLAGS_1 has DF_1_PIE: a program, which a loader refuses to load as a library */
};

/*
 * Read the 64-bit ELF object at path: 0 with d filled (the caller frees it
 * with elf_dyn_release; an object without a dynamic section has none of
 * the lists), or -1 with *why set (malloc'd, the caller frees) when it is
 * not a 64-bit ELF object this can read.
 */
int elf_dyn_read(const char *path, struct elf_dyn *d, char **why);
void elf_dyn_release(struct elf_dyn *d);

/* The program interpreter (PT_INTERP) of the ELF file at path, malloc'd
 * (the caller frees), or NULL (none: static, a shared object, not ELF). */
char *elf_interp(const char *path);

/* Why an object may not be loaded by the runner's boxes (a loader hook
 * entry: DT_AUDIT and its kin; a library named by a path or by the
 * object's own soname), malloc'd (the caller frees), or NULL. */
char *elf_refuse_hooks(const char *path);

/*
 * The hash of what a loader maps of the 64-bit ELF object at path (the
 * record's code.load_sha256): the ELF header's type, machine and entry;
 * every program header; and every PT_LOAD segment's file bytes
 * (p_offset .. p_offset + p_filesz) with its p_vaddr, p_memsz and
 * p_flags, where each NT_GNU_BUILD_ID note's descriptor (a PT_NOTE's,
 * wherever it lies in a loaded segment) and the ELF header's
 * section-table fields (e_shoff, e_shnum, e_shstrndx: no loader reads
 * them; they move as the unloaded sections grow) are zeroed.  What it
 * leaves out is what the loader never maps: the section headers and the
 * unloaded sections (.symtab with the STT_FILE source name, .strtab,
 * .comment, debug information), and the build id computed over them.  So
 * two objects built from sources that differ only in comments, layout or
 * the file's name hash alike (red team 83's twin and rate copies), while
 * one changed instruction, constant or string does not.  The kernel can
 * still tell two such objects apart (its build id is in its memory, its
 * file on disk), which is why the audit merges by this hash only where
 * merging counts against a claim (report/code_identity.h).
 * 0 with hex set, or -1 with *why set (malloc'd, the caller frees).
 */
int elf_load_sha256(const char *path, char hex[SHA256_HEX_LEN + 1], char **why);

/*
 * Overwrite, in the file at path, each GNU build-id note's descriptor in a
 * PT_NOTE segment with the object's load hash (elf_load_sha256, which
 * zeroes those descriptors: so the hash is the same before and after), its
 * bytes repeated to the descriptor's length.  The build id is mapped, and
 * a kernel reads it from its own ELF header: left as the linker wrote it,
 * `-Wl,--build-id=uuid` gave every link 16 random bytes that no hash of
 * the program covered (red team 199: one build key, one load hash, a
 * kernel 4.3x faster in the builds whose first byte came out even), and
 * the default id, computed over the whole file, told a comment-only copy
 * from its original.  Sealed, the id is a function of the loaded image
 * alone, so load-equal objects are equal in memory but for the ELF
 * header's section-table fields (e_shoff, e_shnum, e_shstrndx: mapped,
 * zeroed in the hash), which move with the unloaded sections (a `#ident`
 * line's .comment): a kernel that reads them from its own header tells
 * two load-equal objects apart, as it can by reading its own file (red
 * team 200's shoff.c); so load-equality merges code only where merging
 * counts against a claim (report/code_identity.h).  *n: how many
 * notes were rewritten.  A file that is not ELF at all is left as it is
 * (*n 0).  0, or -1 with *why set (malloc'd, the caller frees): one that
 * begins as ELF but is not read as an object.
 */
int elf_seal_build_ids(const char *path, int *n, char **why);

#endif
