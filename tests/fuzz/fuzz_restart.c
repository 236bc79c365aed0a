/*
 * fuzz_restart.c - libFuzzer harness of the restart reader: the bytes are
 * written to a temporary file and read by h5md_read_last as a restart
 * would (position, velocity and image required). Any outcome but a crash,
 * a hang or a sanitizer report is fine; an accepted file must give a state
 * of the size it claims with a positive box.
 *
 * HDF5 itself is not instrumented: coverage guidance sees only h5md.c,
 * and a crash inside the library still stops the fuzzer (its report names
 * the frame). The seeds (corpus_restart/) are small valid mdsim files and
 * variants of them; see tests/fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../engine/h5md.h"
#include "../../engine/setup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	char err[1024];
	md_state st;
	double t = 0.0;
	FILE *f;

	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "/tmp/mdsim_fuzz_restart.XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		h5md_quiet();
	}
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	if (!h5md_read_last(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st, &t, err,
			    sizeof(err))) {
		if (st.n < 1 || !(st.box[0] > 0.0) || !(st.box[1] > 0.0) ||
		    !(st.box[2] > 0.0) || st.step < 0)
			abort();
		md_state_free(&st);
	}
	return 0;
}
