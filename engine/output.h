/*
 * output.h - the trajectory of a run, as the loop sees it: check the
 * [output] keys before any work, load a restart state, open the H5MD file,
 * hand a frame over every output.every steps, close.
 *
 * Frames are written by a host thread (pthreads) while the simulation goes
 * on. The loop downloads a frame (backend download + thermo) into one of
 * two host buffers owned here and queues it; it waits only when both
 * buffers are still queued (the writer is behind). The writer flushes the
 * file after a frame once output.flush_interval seconds have passed since
 * the last flush (0: after every frame; the first frame always), so a
 * killed run leaves every flushed frame readable.
 *
 * Frames are taken at the steps that are multiples of output.every
 * (absolute steps: a restarted run keeps the grid).
 *
 * Exit codes: MD_EXIT_INPUT for bad keys or a file that must not be
 * touched, MD_EXIT_IO for any failure to write (the run stops; frames
 * already written stay readable).
 */
#ifndef MD_OUTPUT_H
#define MD_OUTPUT_H

#include <stdio.h>
#include "md.h"

typedef struct md_output md_output;

/*
 * md_output_fields - parse an output.fields list ("position,velocity,...")
 * into MD_F_* bits; position is required. Returns 0, or -1 with the
 * offending word in bad.
 */
int md_output_fields(const char *list, unsigned *fields, char *bad,
		     size_t badlen);

/*
 * md_output_check - before any work: the fields parse, a new trajectory's
 * folder exists and is writable (else MD_EXIT_IO), and an existing
 * trajectory file is only touched when output.overwrite (--force) or
 * output.append with a restart says so (else MD_EXIT_INPUT). Messages
 * name file:line of the key. Returns 0 or an exit code after a message on
 * err. Touches no file.
 */
int md_output_check(const md_config *cfg, FILE *err);

/*
 * md_output_restart - load the state to start from out of cfg->restart:
 * the last complete frame's positions (wrapped), images, velocities,
 * species and step, in reduced units whatever units the file is written
 * in (an argon file is converted back: equal to the written state to
 * round-off). The file's particle count and box must be those of the
 * config's [system]; appending to the restart file itself needs
 * output.units = the file's units. Allocates st. Returns 0 or
 * MD_EXIT_INPUT / MD_EXIT_IO after a message on stderr; one line on out
 * unless quiet.
 */
int md_output_restart(const md_config *cfg, md_state *st, FILE *out);

/*
 * md_output_open - create (or, with output.append, continue) the
 * trajectory, in output.units, for a run starting from st (st->step is
 * the first step; an appended file must be in the same units), start
 * the writer thread and hand over the frame of the first step when it is
 * due. *out is NULL when cfg has no trajectory. Returns 0 or an MD_EXIT_*
 * code after a message on stderr (nothing left running).
 */
int md_output_open(md_output **out, const md_config *cfg, const md_state *st,
		   md_backend *be);

/*
 * md_output_clip - n, or fewer steps so that a chunk of steps starting
 * `done` steps into the run ends on the next frame. o may be NULL.
 */
long md_output_clip(const md_output *o, long done, long n);

/*
 * md_output_step - after the run reached `done` steps: when a frame is due,
 * download it from be and queue it (waiting for a free buffer if needed).
 * Returns 0 or MD_EXIT_IO (the writer failed; message printed once) or the
 * backend's error. o may be NULL.
 */
int md_output_step(md_output *o, md_backend *be, long done);

/*
 * md_output_close - let the writer finish the queued frames, flush and
 * close the file, print one line on log (unless quiet) and free o (NULL is
 * a no-op). Returns 0 or MD_EXIT_IO.
 */
int md_output_close(md_output *o, FILE *log);

#endif
