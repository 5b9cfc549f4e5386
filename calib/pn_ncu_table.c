/* pn_ncu_table.c - the launches of an Nsight Compute CSV as a table (CSV or
 * JSON): `pnsim import -f csv|json`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pn_ncu.h"
#include "pn_report.h"

void pn_ncu_write_table(FILE *out, int csv, const pn_ncu_t *ncu, char *const *configs)
{
    static const char *const metric[] = {
        "smsp__inst_executed.sum", "smsp__sass_inst_executed_op_global_ld.sum",
        "smsp__sass_inst_executed_op_global_st.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_inst_executed_op_shared_st.sum", "gpu__time_duration.sum"
    };
    static const char *const name[] = { "warp_instructions", "global_ld", "global_st",
                                        "shared_ld", "shared_st", "duration_ns" };
    const size_t nc = sizeof metric / sizeof metric[0];
    if (csv) {
        fputs("id,kernel,line,cc,threads,blocks,registers,shared_bytes", out);
        for (size_t c = 0; c < nc; c++)
            fprintf(out, ",%s", name[c]);
        fputs(",config\n", out);
    } else {
        fputc('[', out);
    }
    for (size_t i = 0; i < ncu->n_launches; i++) {
        const pn_ncu_launch_t *l = &ncu->launches[i];
        const char *cfg = configs && configs[i] ? configs[i] : NULL;
        if (csv) {
            fprintf(out, "%ld,", l->id);
            pn_csv_string(out, l->kernel);
            fprintf(out, ",%ld,%s,%u,%u,%u,%u", l->line, l->cc, l->threads, l->blocks,
                    l->registers, l->shared_bytes);
            for (size_t c = 0; c < nc; c++) {
                double v = pn_ncu_metric(l, metric[c]);
                if (isnan(v))
                    fputc(',', out);
                else
                    fprintf(out, ",%.10g", v);
            }
            fputc(',', out);
            if (cfg)
                pn_csv_string(out, cfg);
            fputc('\n', out);
            continue;
        }
        fprintf(out, "%s\n  {\"id\": %ld, \"kernel\": ", i ? "," : "", l->id);
        pn_json_string(out, l->kernel);
        fprintf(out, ", \"line\": %ld, \"cc\": ", l->line);
        pn_json_string(out, l->cc);
        fprintf(out, ", \"threads\": %u, \"blocks\": %u, \"registers\": %u, "
                "\"shared_bytes\": %u", l->threads, l->blocks, l->registers, l->shared_bytes);
        for (size_t c = 0; c < nc; c++) {
            double v = pn_ncu_metric(l, metric[c]);
            if (isnan(v))
                fprintf(out, ", \"%s\": null", name[c]);
            else
                fprintf(out, ", \"%s\": %.10g", name[c], v);
        }
        fputs(", \"config\": ", out);
        if (cfg)
            pn_json_string(out, cfg);
        else
            fputs("null", out);
        fputc('}', out);
    }
    if (!csv)
        fputs(ncu->n_launches ? "\n]\n" : "]\n", out);
}
