/*
 * fuzz_xyz.c - libFuzzer harness of the XYZ structure reader
 * (md_xyz_read): the input is written to a private temporary file and
 * read back with the overlap check on. Nothing may crash, hang, leak or
 * trip a sanitizer, whatever the bytes. Built by `make fuzz`; replay.c
 * runs the kept corpus (tests/fuzz/corpus_xyz/) in `make test`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../engine/xyz.h"
#include "../../engine/setup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static FILE *null;
	md_state st;
	FILE *f;
	int has_v;

	if (size > (1u << 16))
		return 0;
	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/mdsim_fuzz_xyz_%ld.xyz", (long)getpid());
	if (!null)
		null = fopen("/dev/null", "w");
	f = fopen(path, "wb");
	if (!f || !null) {
		if (f)
			fclose(f);
		return 0;
	}
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	if (md_xyz_read(path, 0.5, &st, &has_v, null) == 0)
		md_state_free(&st);
	return 0;
}
