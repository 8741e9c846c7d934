# install.mk - `make install` / `make uninstall`: evident where a cluster's
# users expect it (a module's prefix, /usr/local, a home directory).
#
#   make install   [PREFIX=/usr/local] [DESTDIR=]
#       $(DESTDIR)$(PREFIX)/bin/evident               the runner
#       $(DESTDIR)$(PREFIX)/bin/evident-worker        what its jobs exec (src/cli/worker_main.c)
#       $(DESTDIR)$(HARNESS_INSTALL_DIR)/libevident_cuda.so
#                                                     the CUDA harness, where nvcc built it
#       $(DESTDIR)$(PREFIX)/share/man/man1/evident.1  evident(1)
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]     removes exactly those files
#   make man       $(BUILD)/man/evident.1, generated from the built binary's
#                  `evident help` and `evident help COMMAND` (scripts/gen-man)
#
# The runner finds the harness at <its own directory>/../lib/libevident_cuda.so
# (src/backends/backend_cuda.c, harness_path()), hence HARNESS_INSTALL_DIR
# defaults to $(PREFIX)/lib; the runner's rpath ($ORIGIN/../lib) points
# there too.  DESTDIR stages the files for a package or a module tree and is
# not part of any path the installed runner uses.

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL ?= install
BINDIR := $(PREFIX)/bin
HARNESS_INSTALL_DIR ?= $(PREFIX)/lib
MAN1DIR := $(PREFIX)/share/man/man1
MAN_PAGE := $(BUILD)/man/evident.1

.PHONY: install uninstall man
man: $(MAN_PAGE)

$(MAN_PAGE): $(EVIDENT) scripts/gen-man
	@mkdir -p $(dir $@)
	scripts/gen-man $(EVIDENT) > $@.tmp && mv $@.tmp $@

install: all $(MAN_PAGE)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR)
	$(INSTALL) -m 0755 $(EVIDENT) $(DESTDIR)$(BINDIR)/evident
	$(INSTALL) -m 0755 $(EVIDENT_WORKER) $(DESTDIR)$(BINDIR)/evident-worker
	$(INSTALL) -m 0644 $(MAN_PAGE) $(DESTDIR)$(MAN1DIR)/evident.1
	@if [ -n "$(NVCC)" ] && [ -f "$(HARNESS)" ]; then \
		echo "$(INSTALL) -m 0755 $(HARNESS) $(DESTDIR)$(HARNESS_INSTALL_DIR)/libevident_cuda.so"; \
		$(INSTALL) -d $(DESTDIR)$(HARNESS_INSTALL_DIR) && \
		$(INSTALL) -m 0755 $(HARNESS) $(DESTDIR)$(HARNESS_INSTALL_DIR)/libevident_cuda.so; \
	else echo "install: no CUDA harness built here (no nvcc): the installed evident runs host kernels only"; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/evident $(DESTDIR)$(BINDIR)/evident-worker $(DESTDIR)$(MAN1DIR)/evident.1 \
		$(DESTDIR)$(HARNESS_INSTALL_DIR)/libevident_cuda.so
