/* SPDX-License-Identifier: BSD-3-Clause */
/* Files written under a temporary name next to their final one, then
 * renamed into place (writer.c for -w, report_html.c for --html). */
#ifndef ROCEWIRE_CAP_TMPFILE_H
#define ROCEWIRE_CAP_TMPFILE_H

#include <stdio.h>

/* Creates "FINAL.XXXXXX<suffix>" (XXXXXX random), a new file that did not
 * exist, in FINAL's directory so that rename(2) to FINAL is atomic.
 * Returns it open for writing with *tmp_path_out (free() it), or NULL with
 * errno set and nothing created. */
FILE *cap_create_temp(const char *final_path, const char *suffix, char **tmp_path_out);

#endif
