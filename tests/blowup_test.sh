#!/usr/bin/env bash
# blowup_test.sh - the blow-up provocations of gpu_blowup_test.sh on the CPU
# backend (exit 3, step and particle named, trajectory flushed and
# readable), so that `make test` covers them on machines without a GPU.
BACKEND=cpu exec bash "$(dirname "$0")/gpu_blowup_test.sh" "$@"
