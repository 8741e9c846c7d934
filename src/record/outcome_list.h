/*
 * outcome_list.h - every outcome a variant run can have, once (jq's
 * opcode_list.h habit): expanded into the enum, the names the records
 * carry, the one-line meanings `evident help outcomes` and README print,
 * the spec's `expect:` check, the classifier and every reader.
 *
 * To add an outcome: add one X() line here (name as it appears in records,
 * meaning as the user reads it), make the classifier (src/run/outcome.c)
 * produce it, add a fixture that gets it, and regenerate README's table
 * (scripts/readme-generated.sh bin/evident; tests/cli/t0082 compares it
 * with `evident help outcomes --markdown`).  Never rename or reorder a
 * name that a committed record may carry: readers map unknown names to
 * OUTCOME_UNKNOWN, so an old evident still reads newer records.
 */
/* X(ENUM_SUFFIX, "name", "meaning") */
#define OUTCOME_LIST(X)                                                                              \
	X(OK, "ok", "every check passed: correctness seeds and distributions, the timed launches checked, the extra shape") \
	X(BUILD_FAILED, "build_failed", "the compiler failed (its first error, e.g. shared memory over the limit; full log kept)") \
	X(LAUNCH_FAILED, "launch_failed", "the launch was refused (invalid configuration, too many resources, ABI mismatch)") \
	X(INIT_FAILED, "init_failed", "the kernel's init refused the shape (its own reason)") \
	X(CRASHED, "crashed", "a signal (SIGSEGV...) or a sticky CUDA error (cudaErrorMisalignedAddress...)") \
	X(TIMEOUT, "timeout", "still running at limits.timeout_s; killed") \
	X(WRONG_OUTPUT, "wrong_output", "values out of tolerance (max |err|, rel L2, first mismatch)") \
	X(NAN, "nan", "NaN or Inf in the output") \
	X(UNWRITTEN_OUTPUT, "unwritten_output", "output elements still holding the random bits written before the launch") \
	X(FLAKY, "flaky", "some checks pass and others fail (seeds, distributions, timed launches)") \
	X(NO_DEVICE, "no_device", "no GPU here (the whole run stops with exit 4)") \
	X(ABORTED, "aborted", "interrupted while running (SIGINT/SIGTERM, or a Slurm task killed: its reason is Slurm's line); left out of the batch's statistics") \
	X(PROTOCOL_VIOLATION, "protocol_violation", "the worker's messages broke the protocol (a forged, extra, missing or late message)") \
	X(ESCAPED_WORK, "escaped_work", "work outside the timed region: another stream, still running after the stop event (host: computing after the done line, or outputs written after it), or a CUDA worker's host thread") \
	X(CLOCK_DISAGREE, "clock_disagree", "the CUDA events saw far more device time than the kernel clock counted for the same samples (work the kernel clock cannot see, such as kernels launched from the device): no time is taken from either") \
	X(BELOW_FLOOR, "below_floor", "median faster than the hardware allows (bytes over peak bandwidth or FLOPs over peak)") \
	X(TAMPERED, "tampered", "the kernel's binary changed while it ran, or a cached binary no longer matches its hash") \
	X(REFERENCE_FAILED, "reference_failed", "the judge's own reference disagreed with the float64 reference: nothing can be concluded")
