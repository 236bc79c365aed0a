/*
 * viz_png.c - a canvas as an 8-bit RGB PNG file, through libpng's
 * simplified write API (libpng >= 1.6; zlib does the deflate).
 */
#include "viz.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int viz_png_write(const viz_canvas *cv, const char *path, char *err,
		  size_t errlen)
{
	png_image img;
	unsigned char *rgb = NULL;
	size_t i, npix = (size_t)cv->w * cv->h;
	int rc = -1;

	if (!cv->pix || npix == 0) {
		snprintf(err, errlen, "empty canvas");
		return -1;
	}
	rgb = malloc(3 * npix);
	if (!rgb) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (i = 0; i < npix; i++) {
		uint32_t p = cv->pix[i];

		rgb[3 * i] = (unsigned char)(p >> 16);
		rgb[3 * i + 1] = (unsigned char)(p >> 8);
		rgb[3 * i + 2] = (unsigned char)p;
	}
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = (png_uint_32)cv->w;
	img.height = (png_uint_32)cv->h;
	img.format = PNG_FORMAT_RGB;
	img.flags = PNG_IMAGE_FLAG_FAST;	/* frames: speed over size */
	if (!png_image_write_to_file(&img, path, 0, rgb, 3 * cv->w, NULL)) {
		snprintf(err, errlen, "%s: %s", path, img.message);
		png_image_free(&img);
		goto fail;
	}
	rc = 0;
fail:
	free(rgb);
	return rc;
}
