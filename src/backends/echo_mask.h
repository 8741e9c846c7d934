/*
 * echo_mask.h - a host object's code identity apart from its parameters'
 * echoes: the hash behind the record's code.echo_neutral_sha256.
 *
 * A kernel echoes the values it was compiled with (kernels/evident_kernel.h
 * EV_PARAM: "NAME=VALUE" strings in compiled_params), so two variants of one
 * file whose parameter reaches nothing but that echo are two binaries of one
 * code.  The hash is taken of the assembly text of the variant's own compile
 * (build.c runs the compile once more with -S, in the same box and view, and
 * checks that the text assembles and links into the very object that runs),
 * with each echo's value masked: a second build the kernel could tell apart
 * (red team 125: `#ifdef EVIDENT_KERNEL_H` where the old neutral build forced
 * evident_echo_neutral.h in, K pinned to 1 there, and K=1 and K=64 shared
 * one hash) no longer exists.  Text, not the object, so that values of other
 * lengths (SALT=1, SALT=10) do not move the object's layout into the hash.
 */
#ifndef EVIDENT_ECHO_MASK_H
#define EVIDENT_ECHO_MASK_H

#include <stddef.h>

#include "backends/backend.h"

/*
 * The hash of assembly text (gcc -S, GNU as syntax) with every parameter's
 * echo masked, into hex.  Canonical form: each line as it is (trailing
 * blanks dropped), but
 *   - the bytes of consecutive .string/.ascii/.asciz directives, decoded
 *     (gas's escapes), are one run of data; where the current section is
 *     read-only data (.rodata..., no "x" flag: a string in code could be
 *     run), each "NAME=" of a parameter NAME at the start of a string or
 *     after a space has its value (up to the next " P=" of a parameter P,
 *     the string's end or the run's) replaced by "?";
 *   - a mergeable string section's alignment (.rodata.str1.N: gcc moves a
 *     string of 31 bytes or more to .rodata.str1.8 with .align 8) is not
 *     part of it: `.section .rodata.str1.N[,FLAGS]` reads as
 *     `.section .rodata.str1.*` (gcc writes the flags at the first switch
 *     only; a string section with "x" is not read so), a
 *     switch to the section already current is dropped, and so is an
 *     .align / .p2align / .balign inside one.
 * Anything else (code, labels, other data, other sections) is hashed as
 * written, so a parameter that reaches them makes another hash; a line it
 * cannot read as a string directive is such a line.  Text with an inline
 * asm() that holds anything but comments (#APP ... #NO_APP) is hashed with
 * nothing masked: asm could switch sections, define a macro or open an .if
 * behind the lines' backs (echo_mask.c).
 */
void echo_mask_hash(const char *text, size_t len, const struct param *params, size_t n_params,
		    char hex[SHA256_HEX_LEN + 1]);

#endif /* EVIDENT_ECHO_MASK_H */
