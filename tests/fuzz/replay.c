/*
 * replay.c - a main for a fuzz harness without libFuzzer: every file in
 * the directories given (default: REPLAY_DIR, set by the Makefile) goes
 * through LLVMFuzzerTestOneInput once. Run by `make test` (gcc build, the
 * SANITIZE=1 build adds ASan and UBSan), so that every input the fuzzer
 * ever kept stays harmless. Prints "ok - N inputs" or exits non-zero.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* read_all - the whole file (malloc'ed) or NULL. */
static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	*size = (size_t)len;
out:
	fclose(f);
	return buf;
}

static int replay_dir(const char *dir, long *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d) {
		fprintf(stderr, "replay: cannot open %s\n", dir);
		return 1;
	}
	while ((e = readdir(d))) {
		uint8_t *buf;
		size_t size = 0;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		buf = read_all(path, &size);
		if (!buf) {
			fprintf(stderr, "replay: cannot read %s\n", path);
			closedir(d);
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, size);
		free(buf);
		(*count)++;
	}
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	long count = 0;
	int i, rc = 0;

	if (argc < 2) {
#ifdef REPLAY_DIR
		rc = replay_dir(REPLAY_DIR, &count);
		if (!rc)
			printf("ok - %ld inputs of %s replayed\n", count, REPLAY_DIR);
		return rc;
#else
		fprintf(stderr, "usage: %s DIR...\n", argv[0]);
		return 2;
#endif
	}
	for (i = 1; i < argc; i++)
		rc |= replay_dir(argv[i], &count);
	if (!rc)
		printf("ok - %ld inputs replayed\n", count);
	return rc;
}
