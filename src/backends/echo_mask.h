/*
 * echo_mask.h - a host object's code identity apart from its parameters'
 * echoes: the hash behind the record's code.echo_neutral_sha256.
 *
 * A kernel echoes the values it was compiled with (kernels/evident_kernel.h
 * EV_PARAM: "NAME=VALUE" strings in compiled_params), so two variants of one
 * file whose parameter reaches nothing but that echo are two binaries of one
 * code.  The hash is taken of the relocatable object of the variant's own
 * compile (build.c runs the compile once more with -c, in the same box and
 * view, and checks that the object links into the very shared object that
 * runs, byte for byte), with the echo's own bytes masked: the string that the
 * descriptor's compiled_params points at, found by the descriptor's symbol
 * and its relocation, never by reading text.  Red team 125 steered a second
 * build the kernel could tell apart; red team 130 steered the old masker,
 * which read the compile's -S text (a `#NO_APP` in an asm() hid the asm from
 * its guard, gas read `\9` as octal where it did not, a gas macro switched
 * sections behind a `.section` line it followed): what gas assembled is what
 * is hashed now.
 */
#ifndef EVIDENT_ECHO_MASK_H
#define EVIDENT_ECHO_MASK_H

#include <stddef.h>

#include "backends/backend.h"

/*
 * The hash of the ELF64 relocatable object obj[0, len) with its EV_PARAM
 * echo masked, into hex: 0, or -1 with *why set (malloc'd, the caller
 * frees) when obj is not a little-endian ELF64 relocatable object this
 * reads (REL relocations, extended section numbering, a table that runs
 * off the file).
 *
 * The echo is the NUL-terminated string (a whole one: the byte before it
 * is a NUL or the section's start) that the relocation at the
 * compiled_params field of the object `ev_kernel_desc_` (EVIDENT_DEFINE_KERNEL's
 * descriptor) points at, where that string lies in a mergeable string
 * section (SHF_MERGE|SHF_STRINGS, entsize 1) named .rodata or .rodata.*
 * (the linker places input sections by name) that is neither writable nor
 * executable, the shared object so[0, so_len) linked from obj (where so is
 * not NULL) maps no section but code executable (`-z noseparate-code` maps
 * .rodata so), no relocation applies to that section, and nothing but that
 * one relocation refers to a byte of the string (by its section and addend,
 * as the linker resolves a reference into a merged section, or by a symbol
 * inside it).  Then the string and the zero padding up to the section's
 * alignment after it are cut out of their section: offsets behind it (of
 * symbols, of relocations' addends against the section) move down by its
 * length, a section that held nothing else is left out with the symbols in
 * it, and the descriptor's relocation reads "echo" with the string in which
 * each parameter's "NAME=" at the start or after a space has its value
 * replaced by "?".  So values of any length hash alike (a string of 31
 * bytes or more is in .rodata.str1.8 alone).  Where any condition fails,
 * nothing is masked (another hash for each value: never one code for two
 * programs).
 *
 * What is hashed is every section by its name, type, flags, address,
 * alignment, entry size, size, link and info (section and symbol numbers
 * renumbered past what was left out) and contents: the symbol table entry
 * by entry (name, info, other, section, value, size), relocations entry by
 * entry (offset, type, symbol, addend), group sections by their members,
 * other sections byte for byte (NOBITS: none); the non-allocated string
 * tables only through the names that use them; the ELF header's identity,
 * type, machine, version, entry and flags.  File offsets are layout and are
 * left out.  So two objects share the hash only when everything the linker
 * reads of them but the echo's bytes is identical.
 */
int echo_mask_object(const unsigned char *obj, size_t len, const unsigned char *so, size_t so_len,
		     const struct param *params, size_t n_params, char hex[SHA256_HEX_LEN + 1], char **why);

#endif /* EVIDENT_ECHO_MASK_H */
