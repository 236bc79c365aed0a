/* timer.h - wall-clock seconds from a monotonic clock. */
#ifndef MD_TIMER_H
#define MD_TIMER_H

#include <time.h>

static inline double md_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
