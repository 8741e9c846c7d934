# t0359 - red team 298 row 3 (host/redteam298/README.md): an evident
# built before red team 289's fix, started in today's tree, records
# today's problem code (current) and the drawn extra shape, judges that
# shape's checks by the spec shape's rule and records no
# extra_shape.tolerance.  Red team 296's rsq (rsqrtss: outside layernorm's
# fp32 rule at a drawn C under ~2900, the rule growing like sqrt(C)) read
# `ok` 58 of 60 runs, `validated rsq` and `faster rsq vs naive` supported
# 3 of 5 stores.  Here without building an old runner: today's runner
# writes the batches, then oldrecords.py makes a copy of the store read
# as that runner would have written it (no extra_shape.tolerance; each
# extra-shape check inside the run's own rule passed, its run `ok`; the
# chain recomputed, as it has no key).  Now such a pass is weighed by the
# problem's rule at the recorded drawn shape, asked of the run's kept
# plug-in object (record_shape_pass_misjudged, rejudge.c drawn_rule_of):
# `validated rsq` is contradicted naming that rule, `faster` is not
# supported, and naive's runs, re-weighed the same way, still pass.
# About 1 min, up to 3 under load (a batch draws a C under ~2900 for one
# rsq run in about 2 of 3).
. "$REPO/tests/cli/lib.sh"
mkrepo
D=tests/fixtures/adversary/host/redteam298
cat > claim.md <<CLAIMS
# t0359's claims
rsq passes every check. <!-- claim: validated experiment=host-redteam298-oldjudge8k variant=rsq -->
rsq is faster than naive. <!-- claim: faster experiment=host-redteam298-oldjudge8k a=rsq b=naive -->
naive passes every check. <!-- claim: validated experiment=host-redteam298-oldjudge8k variant=naive -->
CLAIMS
# batches until one rsq run failed at the extra shape only, inside the
# run's own rule (what the old runner read as passed); a store where one
# failed beyond it (the old runner failed it too) is set aside
found=
element_only=
for try in 1 2 3; do
	S=$TEST_TMP/store$try
	for b in 1 2 3 4; do
		"$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/host-redteam298-oldjudge8k.yaml > run.out 2>&1
		grep -E '^(naive|rsq|twin) +[a-z_]+ |wrong_output' run.out | cut -c1-300
		expect_match run.out "^naive +ok "
		rm -rf "$TEST_TMP/old$try" && cp -a "$S" "$TEST_TMP/old$try" || fail "copy the store"
		rc=0
		python3 $D/oldrecords.py "$TEST_TMP/old$try" > old.out || rc=$?
		cat old.out
		[ $rc -eq 3 ] && break
		[ $rc -eq 0 ] || fail "oldrecords.py exited $rc"
		if grep -q "^old-ok .* rsq " old.out; then
			"$EVIDENT" audit --store "$TEST_TMP/old$try" claim.md > audit.out 2>&1
			# a failure by elements alone, its rel L2 inside the drawn
			# shape's rule, is one a record's numbers cannot show (the
			# re-weighing reads rel L2 and max |err| against atol's
			# scale; the CI of 32788de39: rsq at C 3880, 9 entries out,
			# rel L2 7.1e-5): another batch
			if grep -q "claim.md:2: supported" audit.out; then
				element_only=1
				continue
			fi
			found=$TEST_TMP/old$try
			break 2
		fi
	done
done
[ -n "$found" ] || [ -z "$element_only" ] ||
	skip "the rsq runs that failed at the extra shape only failed by elements inside the rule's rel L2 here"
[ -n "$found" ] || fail "no rsq run failed at the extra shape only in 3 stores of up to 4 batches"
cat audit.out
expect_not_contains audit.out "claim.md:2: supported"
expect_match audit.out "claim.md:2: contradicted: validated host-redteam298-oldjudge8k/rsq: .*extra shape: a check recorded as passed fails the problem's rule at the drawn shape \(rel L2 [0-9.e-]+ against [0-9.e-]+"
expect_not_contains audit.out "claim.md:3: supported"
# the honest reference's runs, re-weighed by the same rule, still pass
expect_match audit.out "claim.md:4: supported: validated host-redteam298-oldjudge8k/naive"
# today's records (the rule recorded) read as before
"$EVIDENT" audit --store "$S" claim.md > today.out 2>&1
cat today.out
expect_not_contains today.out "claim.md:2: supported"
expect_match today.out "claim.md:4: supported"
exit 0
