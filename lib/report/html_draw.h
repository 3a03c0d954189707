/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the report: what the two HTML pages (report_html.c, the per-QP
 * report; report_between_html.c, the two-tap comparison) draw with, so
 * that they look alike and escape alike: text escaping, round axis steps,
 * plot frames with axes and ticks, the style sheet, the KPI tiles, the
 * colours, and writing a page through a temporary file renamed into place
 * (a failure never leaves half a page under the name asked for). */
#ifndef ROCEWIRE_CAP_HTML_DRAW_H
#define ROCEWIRE_CAP_HTML_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SVG_W 1200

#define HD_PALETTE_N 10
extern const char *const hd_palette[HD_PALETTE_N];

#define C_RETX "#d62728"
#define C_GAP "#ff7f0e"
#define C_OOO "#9467bd"
#define C_CE "#e8590c"
#define C_CNP "#1c7ed6"
#define C_QLEN "#7048e8"
#define C_PAUSE "#e15759"
#define C_STORM "#8f1d21"
#define C_GRID "#e5e7eb"
#define C_AXIS "#9ca3af"
#define C_TICK "#4b5563"
#define C_LABEL "#374151"
#define C_TITLE "#111827"

/* What a plot draws from the data, apart from its frame, axes and legend
 * (the HTML tests render each plot with and without these groups). */
#define DATA_OPEN "<g class=\"data\">\n"
#define DATA_CLOSE "</g><!--/data-->\n"

/* Text for HTML (attribute or element): & < > " ' escaped, control bytes
 * (a hostile file name) shown as '?'. */
void hd_esc(FILE *f, const char *s);

/* 1, 2 or 5 times a power of ten, near range/target. No libm. */
double hd_nice_step(double range, int target);
int hd_step_decimals(double step);
double hd_floor(double v);
double hd_ceil(double v);
/* A tick value; with k or M when the axis runs into the ten thousands
 * (PSNs), so that labels stay short. */
char *hd_tick_label(char *b, size_t cap, double v, double step, int dec, double top);

/* The unit of a time axis spanning span_ns: ns, µs, ms or s, and the
 * nanoseconds in one. */
void hd_time_unit(uint64_t span_ns, const char **unit, double *div);

/* A plot area (x, y, w, h in pixels) and the data range it shows. */
struct hd_ax {
	double x, y, w, h;
	double x0, x1, y0, y1;
};
/* Pixel of a data value, clamped to the area. */
double hd_x(const struct hd_ax *a, double v);
double hd_y(const struct hd_ax *a, double v);

/* <svg class="plot"> SVG_W wide, its <title> and the title text. */
void hd_svg_open(FILE *f, const char *id, int height, const char *title);
/* A grey line of text under the title. */
void hd_svg_sub(FILE *f, int y, const char *text);
/* Grid, ticks and labels of the x axis and, unless ylabel is NULL, of the
 * y axis. */
void hd_axes(FILE *f, const struct hd_ax *a, const char *xlabel, const char *ylabel, int ygrid);
/* A message in the middle of an empty plot. */
void hd_empty_msg(FILE *f, const struct hd_ax *a, const char *msg);

/* The style sheet both pages use. */
extern const char hd_css[];
/* A KPI tile: red when bad. */
void hd_kpi(FILE *f, const char *k, const char *v, int bad);
void hd_kpi_u(FILE *f, const char *k, uint64_t v, int bad_if_nonzero);

/* Writes path through path.XXXXXX.tmp: page(f, ctx) writes the page and
 * returns 0, or -1 with errno (out of memory); the file is renamed into
 * place only when the page and its writing succeeded. 0, or -1 with errno
 * (and nothing left behind). */
int hd_write_page(const char *path, int (*page)(FILE *f, void *ctx), void *ctx);

#endif
