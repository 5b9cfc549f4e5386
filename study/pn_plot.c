/* pn_plot.c - sweep plots: a gnuplot script with inline data, run by gnuplot. */
#include "pn_plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    fprintf(f, "set terminal %s size 800,500 font 'Sans,11'\nset output ", term);
    gp_string(f, out);
    fputs("\nset title ", f);
    char title[512];
    /* microseconds wherever the device maps steps to time, steps otherwise */
    int us = sw->dev->calibrated;
    double scale = us ? sw->dev->us_per_step : 1, b0 = us ? sw->dev->us_offset : 0;
    snprintf(title, sizeof title, "%s on %s: %s of the Petri-net model (%u runs per point)",
             cfg->kernel_name, sw->dev->name, us ? "predicted time" : "steps", sw->runs);
    gp_string(f, title);
    fputs(" noenhanced\nset xlabel ", f);
    gp_string(f, strcmp(xname, "threads") == 0 ? "threads per block" : xname);
    fprintf(f, " noenhanced\nset ylabel '%s'\nset grid\nset key outside right top\n"
            "set format y '%%.1s%%c'\nset yrange [0:*]\n"
            "set offsets graph 0.05, graph 0.05, graph 0.1, 0\n",
            us ? "time in microseconds (mean +/- sd)" : "steps (mean +/- sd)");
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
        gp_string(f, n ? name : us ? "mean time" : "mean steps");
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
    if (len > 4 && strcmp(path + len - 4, ".svg") == 0)
        term = "svg dynamic";
    else if (len > 4 && strcmp(path + len - 4, ".png") == 0)
        term = "pngcairo";
    else
        return pn_error_set(err, PN_EINVAL, "%s: a plot must be a .svg or .png file", path);
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

pn_status_t pn_plot_sweep(const pn_sweep_t *sw, const char *path, pn_error_t *err)
{
    return run_gnuplot(path, sweep_writer, sw, sw->stop, err);
}
