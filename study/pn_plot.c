/* pn_plot.c - sweep and comparison plots: a gnuplot script with inline
 * data, run by gnuplot. */
#include "pn_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* "µs" in UTF-8 (the scripts say `set encoding utf8`) */
#define PN_PLOT_US "\xc2\xb5s"

/* The header every plot shares: terminal, encoding, output. */
static void gp_begin(FILE *f, const char *term, const char *size, const char *out);

/* Write s as a gnuplot single-quoted string ('' stands for '). */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* Index of the curve of point i: its position among the combinations of
 * every axis but the first. */
static size_t curve_of(const pn_sweep_t *sw, size_t i)
{
    size_t n0 = sw->cfg->n_sweep ? sw->cfg->sweep[0].n_values : 1;
    return i % (sw->n_points / n0);
}

static void write_script(FILE *f, const pn_sweep_t *sw, const char *term, const char *out)
{
    const pn_config_t *cfg = sw->cfg;
    int has_axis = cfg->n_sweep > 0;
    const char *xname = has_axis ? cfg->sweep[0].name : "threads";
    size_t n0 = has_axis ? cfg->sweep[0].n_values : 1, curves = sw->n_points / n0;
    gp_begin(f, term, "800,500", out);
    fputs("set title ", f);
    char title[512];
    /* microseconds wherever the device maps steps to time, steps otherwise */
    int us = sw->dev->calibrated;
    double scale = us ? sw->dev->us_per_step : 1, b0 = us ? sw->dev->us_offset : 0;
    snprintf(title, sizeof title, "%s on %s: %s of the Petri-net model (%u runs per point)",
             cfg->kernel_name, sw->dev->name, us ? "predicted time" : "steps", sw->runs);
    gp_string(f, title);
    fputs(" noenhanced\nset xlabel ", f);
    gp_string(f, strcmp(xname, "threads") == 0 ? "threads (per block)" : xname);
    /* the y axis never runs below 0, error bars or not */
    fprintf(f, " noenhanced\nset ylabel '%s'\nset grid\nset key outside right top\n"
            "set format y '%s'\nset yrange [0:*]\n"
            "set offsets graph 0.05, graph 0.05, graph 0.1, 0\n",
            us ? "predicted time (" PN_PLOT_US ")" : "steps (mean +/- sd)",
            us ? "%g" : "%.1s%c");
    if (strcmp(xname, "threads") == 0)
        fputs("set logscale x 2\n", f);
    double lo = sw->points[0].steps.mean, hi = lo;
    for (size_t i = 1; i < sw->n_points; i++) {
        lo = sw->points[i].steps.mean < lo ? sw->points[i].steps.mean : lo;
        hi = sw->points[i].steps.mean > hi ? sw->points[i].steps.mean : hi;
    }
    if (lo > 0 && hi / lo > 100)       /* curves decades apart: log scale */
        fputs("set logscale y 10\nset yrange [*:*]\n", f);
    fputs("set xtics (", f);
    for (size_t v = 0; v < n0; v++)
        fprintf(f, "%s%.10g", v ? ", " : "", has_axis ? cfg->sweep[0].values[v]
                                                      : (double)sw->points[0].threads);
    fputs(")\n", f);
    const pn_sweep_point_t *b = &sw->points[sw->best];
    fprintf(f, "set label 1 'best' at %.10g, %.10g point pointtype 7 pointsize 2.5 "
            "linecolor rgb '#d62728' offset 1.2, 1.2\n",
            has_axis ? b->axis[0] : (double)b->threads, scale * b->steps.mean + b0);
    for (size_t c = 0; c < curves; c++) {
        fprintf(f, "$d%zu << EOD\n", c);
        for (size_t i = 0; i < sw->n_points; i++)
            if (curve_of(sw, i) == c)
                fprintf(f, "%.10g %.10g %.10g\n",
                        has_axis ? sw->points[i].axis[0] : (double)sw->points[i].threads,
                        scale * sw->points[i].steps.mean + b0, scale * sw->points[i].steps.sd);
        fputs("EOD\n", f);
    }
    fputs("plot ", f);
    for (size_t c = 0; c < curves; c++) {
        char name[256] = "";
        size_t n = 0;
        const pn_sweep_point_t *p = &sw->points[c];   /* first point of curve c */
        for (size_t a = 1; a < cfg->n_sweep && n < sizeof name; a++)
            n += (size_t)snprintf(name + n, sizeof name - n, "%s%s = %g", a > 1 ? ", " : "",
                                  cfg->sweep[a].name, p->axis[a]);
        fprintf(f, "%s$d%zu using 1:2:3 with yerrorlines linewidth 2 pointtype 7 title ",
                c ? ", " : "", c);
        gp_string(f, n ? name : us ? "mean time +/- sd" : "mean steps");
        fputs(" noenhanced", f);
    }
    fputc('\n', f);
}

static void gp_begin(FILE *f, const char *term, const char *size, const char *out)
{
    fprintf(f, "set terminal %s size %s font 'Sans,11'\nset encoding utf8\nset output ",
            term, size);
    gp_string(f, out);
    fputc('\n', f);
}

/* Families drawn apart; the rest share one mark. */
#define PN_PLOT_FAMILIES 12

/* Index in fam[0..*nf) of row r's family, added when new and room is left;
 * PN_PLOT_FAMILIES when the family is one of the rest. */
static size_t family_of(const pn_compare_row_t *r, const char **fam, size_t *nf)
{
    size_t len = pn_compare_family_len(r->kernel);
    for (size_t k = 0; k < *nf; k++)
        if (pn_compare_family_len(fam[k]) == len && !strncmp(fam[k], r->kernel, len))
            return k;
    if (*nf == PN_PLOT_FAMILIES)
        return PN_PLOT_FAMILIES;
    fam[*nf] = r->kernel;
    return (*nf)++;
}

/* Labelled tics of a log axis over [lo, hi]: 1, 2 and 5 times the powers of
 * ten when it spans up to three decades (gnuplot labels only the powers,
 * often none over a narrow range), the powers alone beyond. */
static void gp_log_tics(FILE *f, char axis, double lo, double hi)
{
    static const double steps[] = { 1, 2, 5 };
    int wide = hi / lo > 1000, n = 0;
    fprintf(f, "set %ctics (", axis);
    for (double p = pow(10, floor(log10(lo))); p <= hi; p *= 10)
        for (int k = 0; k < (wide ? 1 : 3); k++) {
            double v = p * steps[k];
            if (v >= lo && v <= hi)
                fprintf(f, "%s%.6g", n++ ? ", " : "", v);
        }
    fputs(")\n", f);
}

static int drawable(const pn_compare_row_t *r)
{
    return pn_compare_has_prediction(r) && r->predicted_us > 0;
}

static void compare_script(FILE *f, const void *ctx, const char *term, const char *out)
{
    const pn_compare_t *c = ctx;
    const char *fam[PN_PLOT_FAMILIES];
    size_t nf = 0, n_mape, drawn = 0;
    int rest = 0;
    double mape = pn_compare_mape(c, &n_mape), lo = 0, hi = 0;
    for (size_t i = 0; i < c->n; i++) {
        const pn_compare_row_t *r = &c->rows[i];
        if (!drawable(r))
            continue;
        rest |= family_of(r, fam, &nf) == PN_PLOT_FAMILIES;
        double a = fmin(r->measured_us, r->predicted_us), b = fmax(r->measured_us,
                                                                    r->predicted_us);
        lo = drawn ? fmin(lo, a) : a;
        hi = drawn ? fmax(hi, b) : b;
        drawn++;
    }
    /* one range on both axes, so that y = x is the diagonal; room for +-20 % */
    lo /= 1.5;
    hi *= 1.5;
    gp_begin(f, term, "800,640", out);
    char title[160];
    snprintf(title, sizeof title, "predicted against measured: MAPE %.1f %% over %zu launches",
             100 * mape, n_mape);
    fputs("set title ", f);
    gp_string(f, title);
    fputs(" noenhanced\nset xlabel 'measured time (" PN_PLOT_US ")'\n"
          "set ylabel 'predicted time (" PN_PLOT_US ")'\n"
          "set logscale xy 10\nset grid xtics ytics\nset size ratio -1\n"
          "set format x '%g'\nset format y '%g'\nset key outside right top\n"
          "set samples 400\n", f);
    fprintf(f, "set xrange [%.10g:%.10g]\nset yrange [%.10g:%.10g]\n", lo, hi, lo, hi);
    gp_log_tics(f, 'x', lo, hi);
    gp_log_tics(f, 'y', lo, hi);
    for (size_t k = 0; k <= nf; k++) {
        if (k == nf && !rest)
            break;
        fprintf(f, "$f%zu << EOD\n", k);
        for (size_t i = 0; i < c->n; i++) {
            const pn_compare_row_t *r = &c->rows[i];
            size_t n = nf;
            if (drawable(r) && family_of(r, fam, &n) == (k < nf ? k : PN_PLOT_FAMILIES))
                fprintf(f, "%.10g %.10g\n", r->measured_us, r->predicted_us);
        }
        fputs("EOD\n", f);
    }
    fputs("plot x with lines linewidth 1.5 linecolor rgb '#333333' title 'y = x', "
          "1.2 * x with lines dashtype 2 linecolor rgb '#888888' title '+20 %', "
          "0.8 * x with lines dashtype 2 linecolor rgb '#888888' title '-20 %'", f);
    static const int marks[] = { 7, 5, 9, 11, 13, 15 };
    for (size_t k = 0; k <= nf; k++) {
        if (k == nf && !rest)
            break;
        fprintf(f, ", $f%zu using 1:2 with points pointtype %d pointsize 1.2 linecolor %zu "
                "title ", k, marks[k % (sizeof marks / sizeof *marks)], k + 1);
        if (k < nf) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)pn_compare_family_len(fam[k]), fam[k]);
            gp_string(f, name);
        } else
            gp_string(f, "other kernels");
        fputs(" noenhanced", f);
    }
    fputc('\n', f);
}

/* Did gnuplot write the whole plot into tmp? gnuplot exits 0 even when its
 * writes fail (a full disk), so the file's end is checked: an SVG ends with
 * its closing tag, a PNG with its IEND chunk. */
static int plot_complete(const char *tmp, int svg)
{
    FILE *f = fopen(tmp, "rb");
    if (!f)
        return 0;
    char tail[16] = "";
    size_t n = 0;
    if (fseek(f, -(long)sizeof tail, SEEK_END) == 0)
        n = fread(tail, 1, sizeof tail, f);
    fclose(f);
    if (n < 8)
        return 0;
    if (svg) {
        tail[n < sizeof tail ? n : sizeof tail - 1] = '\0';
        return strstr(tail, "</svg>") != NULL;
    }
    return memcmp(tail + n - 8, "IEND\xae\x42\x60\x82", 8) == 0;
}

/* Write a gnuplot script through write(f, ctx, term, out) (term: the
 * gnuplot terminal, out: the file it must set as output), run gnuplot on it
 * and rename its picture to path only when it is whole. *stop set (stop may
 * be NULL) turns the result into the engine's stop error. */
typedef void (*plot_writer_t)(FILE *f, const void *ctx, const char *term, const char *out);

static pn_status_t run_gnuplot(const char *path, plot_writer_t write, const void *ctx,
                               const volatile sig_atomic_t *stop, pn_error_t *err)
{
    size_t len = strlen(path);
    const char *term;
    if (!pn_plot_name_ok(path))
        return pn_error_set(err, PN_EINVAL, "%s: a plot must be a .svg or .png file", path);
    term = strcmp(path + len - 4, ".svg") == 0 ? "svg dynamic" : "pngcairo";
    char script[] = "/tmp/pnsim-plot-XXXXXX";
    int fd = mkstemp(script);
    if (fd < 0)
        return pn_error_set(err, PN_EIO, "cannot create a temporary file: %s", strerror(errno));
    FILE *f = fdopen(fd, "w");
    char *tmp = malloc(len + 32);
    if (!f || !tmp) {
        if (f) fclose(f); else close(fd);
        remove(script);
        free(tmp);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    /* same directory as path, so that rename() stays on one file system */
    snprintf(tmp, len + 32, "%s.tmp%ld%s", path, (long)getpid(), path + len - 4);
    write(f, ctx, term, tmp);
    pn_status_t st = PN_OK;
    if (fclose(f) != 0) {
        st = pn_error_set(err, PN_EIO, "cannot write the gnuplot script");
    } else {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "gnuplot %s 2>&1", script);
        FILE *g = popen(cmd, "r");
        char line[512] = "";
        char first[512] = "";
        while (g && fgets(line, sizeof line, g))
            if (!first[0] && strspn(line, " \t\r\n^") != strlen(line))
                snprintf(first, sizeof first, "%s", line);
        int rc = g ? pclose(g) : -1;
        first[strcspn(first, "\r\n")] = '\0';
        if (stop && *stop)
            st = pn_engine_stop_error(err);
        else if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 127)   /* the shell's "not found" */
            st = pn_error_set(err, PN_EIO, "%s: cannot draw the plot: gnuplot is not installed "
                              "(no gnuplot on PATH)", path);
        else if (rc != 0)
            st = pn_error_set(err, PN_EIO, "%s: gnuplot failed%s%s%s", path,
                              first[0] ? " (" : " (is gnuplot installed?)", first,
                              first[0] ? ")" : "");
        else if (!plot_complete(tmp, term[0] == 's'))
            st = pn_error_set(err, PN_EIO, "%s: gnuplot did not write the whole plot (is the "
                              "disk full?)", path);
        else if (rename(tmp, path) != 0)
            st = pn_error_set(err, PN_EIO, "%s: cannot write: %s", path, strerror(errno));
    }
    if (st != PN_OK)
        remove(tmp);
    remove(script);
    free(tmp);
    return st;
}

static void sweep_writer(FILE *f, const void *ctx, const char *term, const char *out)
{
    write_script(f, ctx, term, out);
}

int pn_plot_name_ok(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && (strcmp(path + n - 4, ".svg") == 0 || strcmp(path + n - 4, ".png") == 0);
}

pn_status_t pn_plot_sweep(const pn_sweep_t *sw, const char *path, pn_error_t *err)
{
    return run_gnuplot(path, sweep_writer, sw, sw->stop, err);
}

pn_status_t pn_plot_compare(const pn_compare_t *c, const char *path,
                            const volatile sig_atomic_t *stop, pn_error_t *err)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += drawable(&c->rows[i]);
    if (!n)
        return pn_error_set(err, PN_EINVAL, "%s: no launch has a prediction to plot", path);
    return run_gnuplot(path, compare_script, c, stop, err);
}
