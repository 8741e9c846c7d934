/*
 * evident_echo_neutral.h - forced (-include) into the host backend's second
 * build of a variant with parameters, never into a kernel that runs: it
 * includes evident_kernel.h first (its include guard then makes the
 * kernel's own #include a no-op) and makes every EV_PARAM echo one constant
 * string, "NAME=?".  _GNU_SOURCE comes before it: the system headers
 * evident_kernel.h includes fix the C library's feature macros, and a
 * kernel's own `#define _GNU_SOURCE` after them was ignored (red team 50's
 * age_gate failed its neutral build on Dl_info, and eval had no neutral
 * identity to compare; a failed neutral build is now "unknown", never
 * "unlike").  Two variants of one file whose parameters differ and
 * whose echo-neutral objects are identical differ in nothing but the echo:
 * the parameter does not reach the compiled code (red team 38's echoed
 * knob, red teams 44 and 46's echo-only SALT).  The object's hash is the
 * record's code.echo_neutral_sha256 (backend_host.c), which the audit's
 * code identity reads (src/report/code_identity.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "evident_kernel.h"
#undef EV_PARAM
#define EV_PARAM(name) #name "=?"
