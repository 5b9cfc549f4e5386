/* cmd_calibrate.h - what `pnsim calibrate` (cmd_calibrate.c) and its report
 * writers (cmd_calibrate_report.c) share: one calibration's state. Private to
 * the command. */
#ifndef CMD_CALIBRATE_H
#define CMD_CALIBRATE_H

#include <stdio.h>

#include "pn_calib.h"
#include "pn_device.h"
#include "pn_engine.h"
#include "pn_measure.h"
#include "pn_points.h"

/* The models fitted to the measured times: pnsim's steps and two baselines. */
enum { MODEL_PNSIM, MODEL_ROOF, MODEL_BBV, N_MODELS };
extern const char *const pn_calib_model_names[N_MODELS];

typedef struct calib_run {
    const pn_device_t *dev;
    const pn_measure_t *meas;
    pn_point_set_t *set;
    pn_engine_kind_t engine;
    int weighted, searched;
    uint32_t l1, l2;              /* chosen latencies (searched) */
    size_t n_fixed;               /* points whose config fixes a latency */
    unsigned jobs;
    double *y, *w;
    size_t *group;
    double *x[N_MODELS];
    pn_model_eval_t ev[N_MODELS];
    /* model.net: pipelined points: the probed, un-fitted prediction
     * steps / clock_mhz + launch_us of the device's pipelined section */
    int pipelined;                /* every point simulates the pipelined net */
    double clock_mhz, launch_us;
    double *probed;               /* n predictions */
    pn_calib_metrics_t probed_all;
    pn_calib_metrics_t *probed_group; /* n_groups */
} calib_run_t;

/* fmt of v into buf, or "n/a" when v is NaN; returns buf. */
const char *pn_calib_num(char *buf, size_t size, const char *fmt, double v);

/* The report of r: as text (the fit, per kernel, models, points, and for the
 * pipelined net the probed prediction), as one JSON object, or as CSV, one
 * row per point (what --points writes). */
void pn_calib_report_text(FILE *out, const calib_run_t *r);
void pn_calib_report_json(FILE *out, const calib_run_t *r);
void pn_calib_report_points(FILE *out, const calib_run_t *r);

#endif
