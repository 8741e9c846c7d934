/*
 * evident_echo_neutral.h - forced (-include) into the host backend's second
 * build of a variant with parameters, never into a kernel that runs: it
 * defines EV_PARAM first (evident_kernel.h keeps a definition it finds), so
 * that every EV_PARAM echo is one constant string, "NAME=?".  It includes
 * nothing: a system header here came before the kernel's own feature
 * macros (`#define _GNU_SOURCE` after it was ignored, and red team 50's
 * age_gate failed its neutral build on Dl_info; eval then had no neutral
 * identity to compare).  Two variants of one file whose parameters differ and
 * whose echo-neutral objects are identical differ in nothing but the echo:
 * the parameter does not reach the compiled code (red team 38's echoed
 * knob, red teams 44 and 46's echo-only SALT).  The object's hash is the
 * record's code.echo_neutral_sha256 (backend_host.c), which the audit's
 * code identity reads (src/report/code_identity.c).
 */
#define EV_PARAM(name) #name "=?"
