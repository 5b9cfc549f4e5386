/* cmd_progress.c - the progress line of long jobs (cmd_progress.h). */
#include "cmd_progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The line appears once a job has run this long, and is rewritten this often. */
#define SHOW_AFTER_S 2.0
#define TICK_NS      250000000L

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fmt_time(char *buf, size_t n, double s)
{
    if (s < 60)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 3600)
        snprintf(buf, n, "%ld min %02ld s", (long)s / 60, (long)s % 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

static void show(pn_cli_progress_t *p)
{
    double el = now_s() - p->t0;
    uint64_t done = atomic_load_explicit(&p->done, memory_order_relaxed);
    uint64_t at = atomic_load_explicit(&p->at_step, memory_order_relaxed);
    /* fraction of the job done: finished runs, and the running one by its
     * steps against the estimate (never counted as finished) */
    double part = 0;
    if (p->est_steps && done < p->total) {
        part = (double)at / (double)p->est_steps;
        part = part > 0.99 ? 0.99 : part;
    }
    double frac = p->total ? ((double)done + part) / (double)p->total : 0;
    char spent[32], eta[48] = "";
    fmt_time(spent, sizeof spent, el);
    if (frac > 0.001) {
        char left[32];
        fmt_time(left, sizeof left, el * (1 - frac) / frac);
        snprintf(eta, sizeof eta, ", ETA %s", left);
    }
    char step[48] = "";           /* where a run is, when the job reports it */
    if (at > 0)
        snprintf(step, sizeof step, ", a run at step %.3g", (double)at);
    fprintf(stderr, "\r\033[Kpnsim %s: %llu/%llu %s done%s, %s%s", p->cmd,
            (unsigned long long)done, (unsigned long long)p->total, p->unit, step, spent, eta);
    fflush(stderr);
    p->shown = 1;
}

static void *ticker(void *arg)
{
    pn_cli_progress_t *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += TICK_NS;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int rc = pthread_cond_timedwait(&p->cond, &p->lock, &ts);
        if (!p->stop && rc == ETIMEDOUT && now_s() - p->t0 >= p->after)
            show(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void pn_cli_progress_begin(pn_cli_progress_t *p, const char *cmd, uint64_t total,
                           uint64_t est_steps, int quiet)
{
    pn_cli_progress_begin_units(p, cmd, "runs", total, est_steps, quiet);
}

void pn_cli_progress_begin_units(pn_cli_progress_t *p, const char *cmd, const char *unit,
                                 uint64_t total, uint64_t est_steps, int quiet)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->unit = unit;
    p->total = total;
    p->est_steps = est_steps;
    p->t0 = now_s();
    /* PNSIM_PROGRESS_AFTER (seconds) moves the 2 s threshold (tests) */
    const char *after = getenv("PNSIM_PROGRESS_AFTER");
    char *end;
    p->after = after ? strtod(after, &end) : SHOW_AFTER_S;
    if (!after || end == after || !(p->after >= 0))
        p->after = SHOW_AFTER_S;
    atomic_init(&p->at_step, 0);
    atomic_init(&p->done, 0);
    if (quiet || !isatty(STDERR_FILENO))
        return;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    if (pthread_create(&p->tid, NULL, ticker, p) == 0) {
        p->on = 1;
        return;
    }
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
}

void pn_cli_progress_run_done(void *ctx, size_t job, size_t done, size_t total)
{
    pn_cli_progress_t *p = ctx;
    (void)job;
    (void)total;
    atomic_store_explicit(&p->done, p->base + done, memory_order_relaxed);
}

void pn_cli_progress_add(void *ctx, uint64_t k)
{
    pn_cli_progress_t *p = ctx;
    atomic_fetch_add_explicit(&p->done, k, memory_order_relaxed);
}

void pn_cli_progress_one_more(void *ctx)
{
    pn_cli_progress_t *p = ctx;
    atomic_fetch_add_explicit(&p->done, 1, memory_order_relaxed);
}

void pn_cli_progress_end(pn_cli_progress_t *p)
{
    if (!p->on)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->tid, NULL);
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->on = 0;
}
