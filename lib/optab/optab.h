/* SPDX-License-Identifier: BSD-3-Clause */
/* Option tables for rocewire-gen and rocewire-verbs: one row per option
 * (long name, short letter, argument, handler, help) drives getopt_long,
 * the --help text and --list-options (the bash completion), so none of
 * them can drift from the others; tests/package checks the man pages
 * against the same list. */
#ifndef RW_OPTAB_H
#define RW_OPTAB_H

#include <stddef.h>
#include <stdio.h>

struct rw_optctx {
	void *o;            /* the tool's options being filled */
	const char *name;   /* the option's long name, for messages */
	char *err;
	size_t errlen;
};

struct rw_opt {
	const char *name;   /* long name; with help NULL, a section title */
	int shortc;         /* 0: none */
	const char *arg;    /* the argument's name in --help; NULL: none */
	int (*fn)(struct rw_optctx *c, const char *arg); /* NULL: --help, --version */
	const char *help;   /* lines separated by '\n' */
};

/* The error message "--NAME: ..." in c->err; returns -1. */
int rw_opt_fail(struct rw_optctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The option rows of t, as in --help: "  -w, --write FILE   help", long
 * forms and continuation lines at column 27, section titles as "TITLE:". */
void rw_optab_usage(FILE *f, const struct rw_opt *t, size_t n);

/* --list-options: "--NAME" or "--NAME=" (takes an argument), one a line. */
void rw_optab_list(FILE *f, const struct rw_opt *t, size_t n);

/* getopt_long over argv with the table (optind and opterr are set here;
 * flags are getopt's leading flags such as "+"). For each option its
 * handler runs. Returns 0 at the end of the options (optind at the first
 * operand), the short letter of a row without handler (-h, -V), or -1
 * with one line in err. */
int rw_optab_parse(const struct rw_opt *t, size_t n, const char *flags, int argc, char **argv,
		   struct rw_optctx *c);

#endif
