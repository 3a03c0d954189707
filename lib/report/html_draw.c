/* SPDX-License-Identifier: BSD-3-Clause */
/* What the HTML pages draw with (html_draw.h): escaping, axes, plot
 * frames, the style sheet, KPI tiles, and the page written through a
 * temporary file. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "html_draw.h"
#include "tmpfile.h"

const char *const hd_palette[HD_PALETTE_N] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948",
					      "#76b7b2", "#ff9da7", "#9c755f", "#bab0ac", "#e15759"};

void hd_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* Control bytes (a hostile file name) are not text. */
			if ((unsigned char)*s < 0x20)
				fputc('?', f);
			else
				fputc(*s, f);
		}
	}
}

/* 1, 2 or 5 times a power of ten, near range/target. No libm. */
double hd_nice_step(double range, int target)
{
	double raw = range / target, mag = 1;
	if (raw <= 0)
		return 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	double norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

int hd_step_decimals(double step)
{
	int d = 0;
	double s = step;
	while (s < 0.999999 && d < 9) {
		s *= 10;
		d++;
	}
	return d;
}

double hd_floor(double v)
{
	double t = (double)(int64_t)v;
	return t > v ? t - 1 : t;
}

double hd_ceil(double v)
{
	double t = (double)(int64_t)v;
	return t < v ? t + 1 : t;
}

/* A tick value; with k or M when the axis runs into the ten thousands
 * (PSNs), so that labels stay short. */
char *hd_tick_label(char *b, size_t cap, double v, double step, int dec, double top)
{
	double at = top < 0 ? -top : top;
	if (v == 0)
		snprintf(b, cap, "0");
	else if (at >= 1e7 && step >= 1e5)
		snprintf(b, cap, "%.*fM", hd_step_decimals(step / 1e6), v / 1e6);
	else if (at >= 1e4 && step >= 100)
		snprintf(b, cap, "%.*fk", hd_step_decimals(step / 1e3), v / 1e3);
	else
		snprintf(b, cap, "%.*f", dec, v);
	return b;
}

void hd_time_unit(uint64_t span, const char **unit, double *div)
{
	if (span < 2000) {
		*unit = "ns";
		*div = 1;
	} else if (span < 2000000) {
		*unit = "\xc2\xb5s";
		*div = 1e3;
	} else if (span < 2000000000) {
		*unit = "ms";
		*div = 1e6;
	} else {
		*unit = "s";
		*div = 1e9;
	}
}

double hd_x(const struct hd_ax *a, double v)
{
	double x = a->x + (v - a->x0) / (a->x1 - a->x0) * a->w;
	return x < a->x ? a->x : x > a->x + a->w ? a->x + a->w : x;
}

double hd_y(const struct hd_ax *a, double v)
{
	double y = a->y + a->h - (v - a->y0) / (a->y1 - a->y0) * a->h;
	return y < a->y ? a->y : y > a->y + a->h ? a->y + a->h : y;
}

void hd_svg_open(FILE *f, const char *id, int height, const char *title)
{
	fprintf(f,
		"<svg id=\"%s\" class=\"plot\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
		"font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', "
		"Arial, 'Liberation Sans', sans-serif\">\n<title>",
		id, SVG_W, height, SVG_W, height);
	hd_esc(f, title);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", SVG_W, height);
	fprintf(f, "<text class=\"ptitle\" x=\"24\" y=\"30\" font-size=\"17\" font-weight=\"600\" "
		      "fill=\"" C_TITLE "\">");
	hd_esc(f, title);
	fputs("</text>\n", f);
}

void hd_svg_sub(FILE *f, int y, const char *text)
{
	fprintf(f, "<text x=\"24\" y=\"%d\" font-size=\"12.5\" fill=\"#6b7280\">", y);
	hd_esc(f, text);
	fputs("</text>\n", f);
}

/* Grid, ticks and labels of the x axis (time) and, unless ylabel is NULL,
 * of the y axis. */
void hd_axes(FILE *f, const struct hd_ax *a, const char *xlabel, const char *ylabel,
		 int ygrid)
{
	fputs("<g class=\"axes\">\n", f);
	double xs = hd_nice_step(a->x1 - a->x0, 8);
	int xd = hd_step_decimals(xs);
	for (double v = hd_ceil(a->x0 / xs) * xs; v <= a->x1 + xs * 1e-9; v += xs) {
		double x = hd_x(a, v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_GRID
			   "\"/>",
			x, a->y, x, a->y + a->h);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"" C_TICK
			   "\" text-anchor=\"middle\">%.*f</text>\n",
			x, a->y + a->h + 17, xd, v);
	}
	if (ylabel) {
		double ys = hd_nice_step(a->y1 - a->y0, 5);
		int yd = hd_step_decimals(ys);
		for (double v = hd_ceil(a->y0 / ys) * ys; v <= a->y1 + ys * 1e-9; v += ys) {
			double y = hd_y(a, v);
			if (ygrid)
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_GRID
					   "\"/>",
					a->x, y, a->x + a->w, y);
			char lb[32];
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"" C_TICK
				   "\" text-anchor=\"end\">%s</text>\n",
				a->x - 7, y + 4, hd_tick_label(lb, sizeof(lb), v, ys, yd, a->y1));
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"" C_LABEL
			   "\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">",
			a->x - 52, a->y + a->h / 2, a->x - 52, a->y + a->h / 2);
		hd_esc(f, ylabel);
		fputs("</text>\n", f);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_AXIS "\"/>\n",
			a->x, a->y, a->x, a->y + a->h);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" C_AXIS "\"/>\n",
		a->x, a->y + a->h, a->x + a->w, a->y + a->h);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"" C_LABEL
		   "\" text-anchor=\"middle\">",
		a->x + a->w / 2, a->y + a->h + 38);
	hd_esc(f, xlabel);
	fputs("</text>\n</g>\n", f);
}

void hd_empty_msg(FILE *f, const struct hd_ax *a, const char *msg)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" fill=\"#6b7280\" "
		      "text-anchor=\"middle\">",
		a->x + a->w / 2, a->y + a->h / 2);
	hd_esc(f, msg);
	fputs("</text>\n", f);
}


/* ---- page ------------------------------------------------------------- */

const char hd_css[] =
	":root{--fg:#111827;--muted:#6b7280;--line:#e5e7eb;--bg:#f3f4f6;--card:#fff;"
	"--bad:#b91c1c;--badbg:#fef2f2;--ok:#047857}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"
	"'Segoe UI',Roboto,'Helvetica Neue',Arial,'Liberation Sans',sans-serif}\n"
	"main{max-width:1320px;margin:0 auto;padding:28px 24px 40px}\n"
	"header h1{margin:0;font-size:24px;font-weight:650;letter-spacing:-.01em}\n"
	"header .file{margin:4px 0 0;font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,"
	"'Liberation Mono',monospace;color:#374151;word-break:break-all}\n"
	"header .meta{margin:6px 0 0;color:var(--muted)}\n"
	".kpis{display:grid;grid-template-columns:repeat(6,1fr);gap:10px;margin:20px 0}\n"
	".kpi{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}\n"
	".kpi .v{font-size:20px;font-weight:650;font-variant-numeric:tabular-nums}\n"
	".kpi .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}\n"
	".kpi.bad{border-color:#fecaca;background:var(--badbg)}.kpi.bad .v{color:var(--bad)}\n"
	".card{background:var(--card);border:1px solid var(--line);border-radius:10px;"
	"padding:14px 16px;margin:0 0 18px;box-shadow:0 1px 2px rgba(0,0,0,.04)}\n"
	".card h2{font-size:17px;margin:4px 0 10px;font-weight:600}\n"
	"svg.plot{display:block;width:100%;height:auto}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}\n"
	"th,td{padding:4px 5px;border-bottom:1px solid var(--line);white-space:nowrap}\n"
	"th{background:#f9fafb;text-align:left;font-weight:600;color:#374151;white-space:normal;"
	"vertical-align:bottom;font-size:11.5px}\n"
	"td.r,th.r{text-align:right}\n"
	"tbody tr:nth-child(even){background:#fafafa}\n"
	"td.addr{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace;"
	"font-size:11.5px}\n"
	"td.hot{color:var(--bad);font-weight:600}\n"
	"table.kv td:first-child{color:var(--muted);padding-right:24px}\n"
	".note{color:var(--muted);font-size:12px;margin:8px 0 0}\n"
	"footer{color:var(--muted);font-size:12px;text-align:center;margin-top:24px}\n";

void hd_kpi(FILE *f, const char *k, const char *v, int bad)
{
	fprintf(f, "<div class=\"kpi%s\"><div class=\"v\">", bad ? " bad" : "");
	hd_esc(f, v);
	fputs("</div><div class=\"k\">", f);
	hd_esc(f, k);
	fputs("</div></div>\n", f);
}

void hd_kpi_u(FILE *f, const char *k, uint64_t v, int bad_if_nonzero)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	hd_kpi(f, k, b, bad_if_nonzero && v);
}

int hd_write_page(const char *path, int (*page)(FILE *f, void *ctx), void *ctx)
{
	char *tmp;
	FILE *f = cap_create_temp(path, ".tmp", &tmp);
	if (!f)
		return -1;
	errno = 0;
	int rc = page(f, ctx);
	int e = rc != 0 ? (errno ? errno : ENOMEM) : ferror(f) ? EIO : 0;
	int bad = e != 0;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad && rename(tmp, path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		unlink(tmp);
		errno = e ? e : EIO;
	}
	free(tmp);
	return bad ? -1 : 0;
}
