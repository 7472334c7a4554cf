#!/usr/bin/env bash
# make bench: generate the datasets (once), measure, write bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/measure.py "$@"
