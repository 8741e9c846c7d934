# paper.mk - make paper | audit | export (issue 6; docs/paper.md).
#
#   make paper    regenerate the generated blocks and figures of $(PAPER)
#   make audit    check the claims and numbers of $(PAPER); strict: an untraced
#                 number fails it too (AUDIT_FLAGS= for warnings only)
#   make export   write notebooks-export/ (CSV, JSON Lines, a notebook, Google
#                 Benchmark JSON) from the store; git-ignored: derived output,
#                 regenerated on demand (a committed copy would go stale with
#                 every run)
#   make paper-check   fail if 'make paper' would change anything (CI)
#
# paper and audit read the store PAPER.md names in its
# `<!-- evident:store path=artifacts -->` marker; export reads the study's
# store artifacts/ (EVIDENT_FLAGS=--store DIR overrides both).  Every target runs from the repository root, which the stale
# check of 'audit' needs (kernel paths in the records are relative to it).

PAPER ?= PAPER.md
AUDIT_FLAGS ?= --strict
EXPORT_DIR ?= notebooks-export

.PHONY: paper-check

paper: all
	$(EVIDENT) paper $(EVIDENT_FLAGS) $(PAPER)

paper-check: all
	$(EVIDENT) paper --check $(EVIDENT_FLAGS) $(PAPER)

audit: all
	$(EVIDENT) audit $(EVIDENT_FLAGS) $(AUDIT_FLAGS) $(PAPER)

export: all
	$(EVIDENT) export --store $(STUDY_STORE) $(EVIDENT_FLAGS) --out $(EXPORT_DIR)
