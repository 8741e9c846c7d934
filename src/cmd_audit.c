/*
 * cmd_audit.c - `evident audit` (placeholder until its issue lands: prints that
 * it is not built yet and exits with EV_INTERNAL, so nothing mistakes it for
 * a result).
 */
#include "evident.h"
#include "util.h"

int cmd_audit(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident audit' is not implemented in this build");
	return EV_INTERNAL;
}
