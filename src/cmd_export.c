/*
 * cmd_export.c - `evident export` (placeholder until its issue lands: prints that
 * it is not built yet and exits with EV_INTERNAL, so nothing mistakes it for
 * a result).
 */
#include "evident.h"
#include "util.h"

int cmd_export(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident export' is not implemented in this build");
	return EV_INTERNAL;
}
