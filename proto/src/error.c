/* SPDX-License-Identifier: BSD-3-Clause */
#include "rocewire/error.h"

const char *rw_strerror(enum rw_err err)
{
	switch (err) {
	case RW_OK:
		return "ok";
	case RW_ERR_TRUNCATED:
		return "truncated";
	case RW_ERR_MALFORMED:
		return "malformed";
	case RW_ERR_UNSUPPORTED:
		return "unsupported";
	case RW_ERR_NOSPACE:
		return "no space in output buffer";
	case RW_ERR_INVALID:
		return "value does not fit its field";
	}
	return "unknown error";
}
