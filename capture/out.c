/* SPDX-License-Identifier: BSD-3-Clause */
/* The output buffer: per-packet text is appended to one large buffer that is
 * handed to stdio in big chunks. */
#include <errno.h>
#include <stdlib.h>

#include "cap.h"

int cap_out_init(struct cap_out *o, FILE *fp, size_t cap)
{
	o->buf = malloc(cap);
	o->len = 0;
	o->cap = o->buf ? cap : 0;
	o->fp = fp;
	o->failed = 0;
	o->errno_saved = 0;
	return o->buf ? 0 : -1;
}

void cap_out_flush(struct cap_out *o)
{
	if (o->len == 0)
		return;
	if (!o->failed) {
		errno = 0;
		if (fwrite(o->buf, 1, o->len, o->fp) != o->len || fflush(o->fp) != 0) {
			/* Keep going so the summary and the exit status still
			 * come out; the failure is reported once at the end. */
			o->failed = 1;
			o->errno_saved = errno;
		}
	}
	o->len = 0;
}

void cap_out_free(struct cap_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->cap = o->len = 0;
}
