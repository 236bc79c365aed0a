/*
 * fuzz_config.c - libFuzzer harness of the config reader: the INI parser
 * (cfg_load_stream on a memory stream), --set overrides (cfg_set) and the
 * validation that follows them (cfg_validate, cfg_write).
 *
 * Input: an INI file; or, when the first byte is '!', one --set assignment
 * per line after it (section.key=value). Nothing may crash, hang, leak or
 * trip a sanitizer, whatever the bytes.
 *
 * Built by `make fuzz` with clang -fsanitize=fuzzer; replay.c runs the
 * kept corpus through the same function under gcc in `make test`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../engine/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Messages go nowhere: only crashes and sanitizer reports matter. */
static FILE *sink(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

/* Apply every line of text (NUL-terminated, modified) as a --set. */
static int set_lines(md_config *cfg, char *text, FILE *err)
{
	char *line = text;
	int rc = 0;

	while (line && *line) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (*line && cfg_set(cfg, line, err))
			rc = MD_EXIT_INPUT;
		line = nl ? nl + 1 : NULL;
	}
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *err = sink(), *fp;
	md_config cfg;
	int rc;

	if (!err || size == 0 || size > (1u << 16))
		return 0;
	cfg_defaults(&cfg);
	if (data[0] == '!') {
		char *text = malloc(size);

		if (!text)
			return 0;
		memcpy(text, data + 1, size - 1);
		text[size - 1] = '\0';
		snprintf(cfg.path, sizeof(cfg.path), "fuzz.ini");
		rc = set_lines(&cfg, text, err);
		free(text);
	} else {
		fp = fmemopen((void *)data, size, "r");
		if (!fp)
			return 0;
		rc = cfg_load_stream(&cfg, fp, "fuzz.ini", err);
		fclose(fp);
	}
	if (!rc && !cfg_validate(&cfg, err))
		cfg_write(&cfg, err);
	return 0;
}
