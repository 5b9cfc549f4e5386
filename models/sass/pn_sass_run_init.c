/* pn_sass_run_init.c - the tables a run of the sass engine reads
 * (pn_sass_run_i.h): per list its buckets and costs, per op its registers
 * and latencies, the in-flight queues, the warps' buffers. */
#include <stdlib.h>
#include <string.h>

#include "pn_sass_run_i.h"

_Static_assert(MAX_OP_REGS <= PN_SASS_RUN_REGS && PN_SASS_RUN_REGS % 4 == 0,
               "an op's registers fit its padded record");

pn_status_t pn_sass_run_init(pn_sass_run_t *r, const pn_sass_sim_t *s, uint64_t seed,
                             pn_error_t *err)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    pn_rng_seed(&r->rng, seed);
    uint32_t nw = s->resident * s->W, nbk = P_PER_PART * s->partitions + (P_N - P_LSU);
    size_t nbr = s->plan.n_branches ? s->plan.n_branches : 1;
    r->w = calloc(nw, sizeof *r->w);
    r->slot = calloc(s->resident, sizeof *r->slot);
    r->bk = calloc(nbk, sizeof *r->bk);
    r->lq = calloc(3 * (size_t)(s->n_ops ? s->n_ops : 1), sizeof *r->lq);
    r->ifq = calloc(3 * (size_t)(s->n_ops ? s->n_ops : 1), sizeof *r->ifq);
    size_t nln = s->n_lines ? s->n_lines : 1;
    /* the registers the program uses, densely numbered */
    int16_t rmap[N_REGS];
    memset(rmap, 0xff, sizeof rmap);
    for (uint32_t i = 0; i < s->n_ops; i++)
        for (int j = 0; j < s->ops[i].n_regs; j++)
            if (rmap[s->ops[i].reg[j]] < 0)
                rmap[s->ops[i].reg[j]] = (int16_t)r->nreg++;
    uint32_t r_never_written = r->nreg++, r_never_read = r->nreg++;
    r->rop = calloc(s->n_ops ? s->n_ops : 1, sizeof *r->rop);
    if (s->fetch && !(r->code_ok = calloc(s->n_clines ? s->n_clines : 1, sizeof *r->code_ok)))
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    /* per warp: its decisions, line records and registers, side by side */
    size_t per = nbr + nln + (r->nreg ? r->nreg : 1);
    r->kbuf = calloc((size_t)nw * per, sizeof *r->kbuf);
    size_t nk = (size_t)s->partitions * s->n_cls;
    r->nw = nw;
    r->wh = malloc(nw * sizeof *r->wh);
    r->cal_words = (nw + 63) / 64;
    r->cal = calloc((size_t)PN_SASS_CAL * r->cal_words, sizeof *r->cal);
    r->cal_sum = calloc(PN_SASS_CAL / 64, sizeof *r->cal_sum);
    r->rd = malloc(nk * nw * sizeof *r->rd);
    r->n_rd = calloc(nk, sizeof *r->n_rd);
    r->act = malloc((nk + 1) * sizeof *r->act);
    r->apos = malloc(nk * sizeof *r->apos);
    r->elig = malloc(nk * sizeof *r->elig);
    r->ready_at = malloc(nk * sizeof *r->ready_at);
    r->lr = calloc(nk, sizeof *r->lr);
    r->memo_at = calloc(s->n_cls + 2, sizeof *r->memo_at);
    r->memo_m = calloc(s->n_cls + 2, sizeof *r->memo_m);
    r->stamp = 1;
    r->if_first = UINT64_MAX;
    r->free_at = UINT64_MAX;
    r->lat = malloc(3 * (size_t)(s->n_ops ? s->n_ops : 1) * sizeof *r->lat);
    if (!r->w || !r->slot || !r->bk || !r->lq || !r->ifq || !r->kbuf || !r->wh || !r->cal ||
        !r->cal_sum || !r->rd ||
        !r->n_rd || !r->act || !r->apos || !r->elig || !r->ready_at || !r->lr || !r->memo_at ||
        !r->memo_m || !r->lat || !r->rop)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    r->sm_mask = UINT64_C(1) << 63;     /* the in-flight slots */
    for (uint32_t k = 0; k < nk; k++) {
        const pn_sass_class_t *c = &s->cls[k % s->n_cls];
        uint32_t p = (uint32_t)(k / s->n_cls);
        pn_sass_lrec_t *L = &r->lr[k];
        L->part = p;
        int sm = 1;
        L->inflight = c->inflight;
        L->n = c->n_pipes;
        for (uint32_t i = 0; i < c->n_pipes; i++) {
            int q = c->pipe[i];
            uint32_t b = pn_sass_bucket(s->partitions, q, p);
            L->b[i] = (uint8_t)b;
            sm &= q >= P_PER_PART;
            L->need[i] = c->cost[q];
            L->chk[i] = pn_sass_check(s, q, c->cost[q]);
            L->mask |= UINT64_C(1) << (b % 63);   /* shared bits only recheck more */
            if (q >= P_PER_PART)
                r->sm_mask |= UINT64_C(1) << (b % 63);
        }
        if (c->inflight)
            L->mask |= UINT64_C(1) << 63;
        /* (one bucket and no in-flight slot is as quick to recheck) */
        sm &= c->n_pipes >= 2 || c->inflight;
        L->memo_rd = sm ? (uint32_t)(k % s->n_cls) : s->n_cls;
        L->memo_wr = sm ? (uint32_t)(k % s->n_cls) : s->n_cls + 1;
    }
    for (uint32_t i = 0; i < s->n_ops; i++)
        for (uint32_t l = 0; l < 3; l++) {
            size_t x = 3 * (size_t)i + l;
            r->lat[x] = pn_sass_latency_at(s, &s->ops[i], (int)l);
            if (!pn_sass_op_levels(&s->ops[i]) || !s->inflight)
                continue;
            uint32_t q = 0;
            while (q < r->n_ifq && r->ifq[q].lat != r->lat[x])
                q++;
            if (q == r->n_ifq) {
                if (!(r->ifq[q].at = malloc(s->inflight * sizeof *r->ifq[q].at)))
                    return pn_error_set(err, PN_ENOMEM, "out of memory");
                r->ifq[q].lat = r->lat[x];
                r->n_ifq++;
            }
            r->lq[x] = q;
        }
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const sop_t *op = &s->ops[i];
        pn_sass_rop_t *ro = &r->rop[i];
        for (uint32_t j = 0; j < PN_SASS_RUN_REGS; j++)
            ro->rreg[j] = (uint16_t)r_never_written;
        for (uint32_t j = 0; j < PN_SASS_RUN_REGS; j++)
            ro->wreg[j] = (uint16_t)r_never_read;
        for (int j = 0; j < op->n_regs; j++)
            ro->rreg[j] = (uint16_t)rmap[op->reg[j]];
        int nwr = 0;
        for (int j = op->n_reads; j < op->n_regs; j++) {
            uint16_t g = op->reg[j], x = (uint16_t)rmap[g];
            if (g >= REG_BR && ro->n_wbr < REG_MEM - REG_PRED)
                ro->wbr[ro->n_wbr++] = x;
            else if (g < REG_BR)
                ro->wreg[nwr++] = x;
        }
        ro->n_rreg = (uint8_t)((op->n_regs + 3) / 4 * 4);
        ro->n_wreg = (uint8_t)((nwr + 1) / 2 * 2);
        int lv = pn_sass_op_levels(op);
        ro->lvmask = lv && op->kind != K_ATOMG && !op->reuse && !op->pinned ? 3 : 0; /* L1 */
        ro->lvfix = lv && op->kind == K_ATOMG ? 1 : 0;
        ro->async = op->async;
        ro->async_n = op->async_n;
    }
    for (uint32_t i = 0; i < nw; i++) {
        r->w[i].k = r->kbuf + (size_t)i * per;
        r->w[i].ldone = r->w[i].k + nbr;
        r->w[i].ready = r->w[i].ldone + nln;
        r->w[i].state = 3;
    }
    for (int q = 0; q < P_N; q++)
        for (uint32_t p = 0; p < (q < P_PER_PART ? s->partitions : 1); p++) {
            pn_sass_bk_t *b = &r->bk[pn_sass_bucket(s->partitions, q, p)];
            b->level = s->cap0[q];
            b->rate = s->rate[q];
            b->cap = s->cap0[q];
        }
    return PN_OK;
}

void pn_sass_run_destroy(pn_sass_run_t *r)
{
    free(r->w);
    free(r->slot);
    free(r->bk);
    for (uint32_t i = 0; r->ifq && i < r->n_ifq; i++)
        free(r->ifq[i].at);
    free(r->ifq);
    free(r->lq);
    free(r->kbuf);
    free(r->rop);
    free(r->code_ok);
    free(r->wh);
    free(r->cal);
    free(r->cal_sum);
    free(r->rd);
    free(r->n_rd);
    free(r->act);
    free(r->apos);
    free(r->elig);
    free(r->ready_at);
    free(r->lr);
    free(r->memo_at);
    free(r->memo_m);
    free(r->lat);
}
