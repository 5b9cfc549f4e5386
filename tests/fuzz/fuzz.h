/* fuzz.h - what every fuzz target (tests/fuzz/fuzz_<parser>.c) shares: the
 * libFuzzer entry points and helpers to hand an input to a reader that takes
 * a path, and to check that a refused input got a one-line message. */
#ifndef PN_FUZZ_H
#define PN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_error.h"

/* Called by libFuzzer (or tests/fuzz/replay.c) once per input; returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write data[0..size) to this process's scratch file, whose name ends with
 * suffix (".yaml", ".csv"); the same file is rewritten on every call.
 * Returns its path (static storage); aborts when the file cannot be written. */
const char *pn_fuzz_file(const uint8_t *data, size_t size, const char *suffix);

/* The oracle for a refused input: st is an error and err holds a non-empty
 * message of one line. Aborts otherwise (libFuzzer reports a crash). */
void pn_fuzz_check_error(pn_status_t st, const pn_error_t *err);

/* Write SASS program p as a program file into the scratch file and read it
 * back into q (the caller destroys q): aborts unless it reads back with the
 * same instructions (offsets, branch targets, opcodes). */
struct pn_sass_prog;
void pn_fuzz_sass_roundtrip(const struct pn_sass_prog *p, struct pn_sass_prog *q);

/* A FILE that discards what is written to it (for writers fed parsed input). */
FILE *pn_fuzz_sink(void);

#endif
