#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The differential test: rocewire-gen's ground truth (--truth-jsonl) against
# rocewire-cap's report and the engine's per-packet verdicts, field by field
# (diff_run.py: scenarios from diff_scenario.py, expectations from
# diff_oracle.py, the definitions in capture/README-report.md).
#   test_gen_diff.sh --samples  every sample scenario, whole and cut
#   test_gen_diff.sh          ROCEWIRE_DIFF_CI_SEEDS random seeds (300), from 1,
#                             and the seeds of diff_regressions.txt
#   test_gen_diff.sh --long   ROCEWIRE_DIFF_SEEDS random seeds from 100000
#                             (skipped, 77, when it is not set)
# No exemptions: a mismatch fails the test, and says the seed or sample,
# the scenario, the cut, the flow, the field, the truth and the report.
# Env: ROCEWIRE_GEN, ROCEWIRE_CAP, ROCEWIRE_DIFF_NOTES, ROCEWIRE_SOURCE_DIR;
# ROCEWIRE_KEEP=DIR keeps each failing case's files (scenario, pcap, truth,
# cut, report, notes) in DIR/CASE/; ROCEWIRE_DIFF_JOBS (3) cases at a time.
set -u
py=/usr/bin/python3
src=${ROCEWIRE_SOURCE_DIR:-}
for t in "${ROCEWIRE_GEN:-}" "${ROCEWIRE_CAP:-}" "${ROCEWIRE_DIFF_NOTES:-}"; do
	if [ -z "$t" ] || [ ! -x "$t" ]; then
		echo "FAIL: set ROCEWIRE_GEN, ROCEWIRE_CAP and ROCEWIRE_DIFF_NOTES" >&2
		exit 1
	fi
done
if [ ! -x "$py" ]; then
	echo "SKIP: $py is missing"
	exit 77
fi
keep=
[ -n "${ROCEWIRE_KEEP:-}" ] && keep="--keep ${ROCEWIRE_KEEP}"
jobs=${ROCEWIRE_DIFF_JOBS:-3}
here=$(dirname "$0")
if [ "${1:-}" = "--samples" ]; then
	# shellcheck disable=SC2086
	exec "$py" "$here/diff_run.py" --samples "$src/samples/scenarios" --jobs "$jobs" $keep
fi
if [ "${1:-}" = "--long" ]; then
	if [ -z "${ROCEWIRE_DIFF_SEEDS:-}" ]; then
		echo "SKIP: the long run wants ROCEWIRE_DIFF_SEEDS=N (random scenarios to run)"
		exit 77
	fi
	# shellcheck disable=SC2086
	exec "$py" "$here/diff_run.py" --seeds "$ROCEWIRE_DIFF_SEEDS" --first 100000 --jobs "$jobs" $keep
fi
# shellcheck disable=SC2086
exec "$py" "$here/diff_run.py" --seeds "${ROCEWIRE_DIFF_CI_SEEDS:-300}" --first 1 \
	--seed-list "$here/diff_regressions.txt" --jobs "$jobs" $keep
