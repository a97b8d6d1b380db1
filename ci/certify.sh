#!/usr/bin/env bash
# Runs `payconform certify` for the GitHub action (action.yml) and the GitLab template
# (ci/payconform.gitlab-ci.yml), from inputs in PAYCONFORM_INPUT_* variables, then writes the
# bundle's verdict, coverage and causes where the CI system shows them. Exits with certify's code.
#
#   PAYCONFORM_INPUT_BASE_URL  gateway (empty: the embedded mock)   ..._PROFILE   gateway profile file
#   PAYCONFORM_INPUT_TAGS      tag expression                       ..._REQUIRE   capabilities, comma-separated
#   PAYCONFORM_INPUT_SHARD     I/N                                  ..._STRICT    true: fail on assumption warnings
#   PAYCONFORM_INPUT_SIGN_KEY  PEM text of the signing key (a secret: written to a 0600 file, removed at exit)
#   PAYCONFORM_INPUT_REPORT_DIR bundle folder (default reports/payconform)
#   PAYCONFORM_INPUT_ARGS      further certify arguments, split on spaces
#   PAYCONFORM_HOME            the payconform checkout (default: this script's parent folder)
# Where the results go: $GITHUB_STEP_SUMMARY (Markdown), annotations on stdout when $GITHUB_ACTIONS is
# true, report-dir= and verdict= lines in $GITHUB_OUTPUT; in GitLab, $PAYCONFORM_SUMMARY_FILE (Markdown).
set -uo pipefail

home="${PAYCONFORM_HOME:-$(cd "$(dirname "$0")/.." && pwd)}"
payconform() { node "$home/bin/payconform.js" "$@"; }
input() { local name="PAYCONFORM_INPUT_$1"; printf '%s' "${!name:-}"; }

report_dir="$(input REPORT_DIR)"
report_dir="${report_dir:-reports/payconform}"
args=(certify --report-dir "$report_dir")
[ -n "$(input BASE_URL)" ] && args+=(--base-url "$(input BASE_URL)" --live --yes)
[ -n "$(input PROFILE)" ] && args+=(--profile "$(input PROFILE)")
[ -n "$(input TAGS)" ] && args+=(--tags "$(input TAGS)")
[ -n "$(input REQUIRE)" ] && args+=(--require "$(input REQUIRE)")
[ -n "$(input SHARD)" ] && args+=(--shard "$(input SHARD)")
[ "$(input STRICT)" = "true" ] && args+=(--strict)
if [ -n "$(input SIGN_KEY)" ]; then
  key_file="$(mktemp)"
  trap 'rm -f "$key_file"' EXIT
  chmod 600 "$key_file"
  printf '%s\n' "$(input SIGN_KEY)" > "$key_file"
  args+=(--sign-key "$key_file")
fi
# The key is in its file now: no process started from here inherits it.
unset PAYCONFORM_INPUT_SIGN_KEY
read -r -a extra <<< "$(input ARGS)"
args+=("${extra[@]}")

CI=true payconform "${args[@]}"
code=$?

verdict="NO BUNDLE"
if [ -f "$report_dir/manifest.json" ]; then
  summary="$(payconform bundle summary "$report_dir")"
  verdict="$(printf '%s\n' "$summary" | sed -n '1s/^# payconform certify: //p')"
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && printf '%s\n\n' "$summary" >> "$GITHUB_STEP_SUMMARY"
  [ -n "${PAYCONFORM_SUMMARY_FILE:-}" ] && printf '%s\n' "$summary" > "$PAYCONFORM_SUMMARY_FILE"
  [ "${GITHUB_ACTIONS:-}" = "true" ] && payconform bundle summary "$report_dir" --format github
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  printf 'report-dir=%s\nverdict=%s\n' "$report_dir" "$verdict" >> "$GITHUB_OUTPUT"
fi
echo "payconform certify: $verdict (exit $code); bundle: $report_dir"
exit "$code"
