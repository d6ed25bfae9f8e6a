/*
 * transform_sweep_tile.c: `sweep_tile16_spread`, `sweep_tile32_spread`,
 * `sweep_tile64_spread`: a warp's sequential row walks staged through
 * shared memory.  In the walks
 * sweep_plan.c finds ("t = blockIdx.x*blockDim.x + threadIdx.x; if (G) {
 * for (int v = L; v < U; v++) { X[t*N + v] = ...; } }", adi's sweeps, a
 * tridiagonal solve along rows) each lane of a warp reads its own row, so
 * one load of the warp touches 32 lines and every step waits a memory
 * latency: adi's best (`spread`) spends about 500 ns a step.  Here the warp
 * loads its 32 rows' next T steps together, a row's consecutive elements
 * by consecutive lanes (coalesced), into a shared tile; each lane then runs
 * its T steps on its own row of the tile, the statements unchanged but for
 * the array elements, which become the tile's; then the warp stores the
 * elements the steps wrote, coalesced again.  A step costs its arithmetic
 * (the chain of divisions) and the walk a load and a store latency every T
 * steps; with prefetch (T = 16, 32) the next tile's elements are loaded
 * into registers while a tile's steps run, but for the columns this tile
 * writes (the next one's halo), which the next tile copies from this one.
 *
 * Each array's accesses lie at fixed distances from its first one
 * (sweep_distance: access x at step v touches the element the first
 * touches at step v + d_x), so the tile holds positions v0 + dmin ..
 * v0 + T - 1 + dmax of every row, loaded where a read of a step that runs
 * needs them and stored where a write of one wrote them: the same elements
 * the original reads and writes, nothing past them.  Only the thread's own
 * row is touched, in the thread's order, so each lane computes what its
 * thread did, bit for bit.  A race-free original has no thread reading
 * what another writes; elements loaded before their step are therefore the
 * ones the original read.
 *
 * The warp's 32 rows are those of its 32 lanes; it needs all of them
 * present and each block's live threads one warp: run with spread's edits
 * (transform_spread.c), on its grid exactly (blockDim.x / 32) tall, where
 * every block's live threads are lanes 0..31 of one warp (`cl1cc_slice ==
 * 32`); on any other grid the original loop runs.
 */
#include <stdio.h>
#include <string.h>

#include "sweep_plan.h"

enum { max_arrays = 8, max_smem = 40 * 1024 };

/* an array of the walk and its tile */
typedef struct tiled_array {
    const char *base, *type, *index; /* index: its first access's */
    const char *at_row;              /* index at row cl1_row, position cl1_p */
    int dmin, dmax;                  /* the accesses' positions, step + d */
    int width;                       /* the tile's columns: T + dmax - dmin */
    int reads[sweep_max_accesses];   /* the reads' distances, once each */
    size_t n_reads;
    int written, write_d;
} tiled_array;

typedef struct tile_plan {
    sweep_plan s;
    tiled_array arr[max_arrays];
    size_t n;
    int array_of[sweep_max_accesses]; /* access -> array */
    int distance[sweep_max_accesses]; /* access -> its d */
} tile_plan;

static size_t element_size(const char *type)
{
    static const char *const four[] = {"float", "int", "unsigned", "unsigned int", NULL};
    static const char *const eight[] = {"double", "long", "long long", "unsigned long",
                                        "unsigned long long", "size_t", NULL};
    for (int i = 0; four[i]; i++)
        if (strcmp(type, four[i]) == 0)
            return 4;
    for (int i = 0; eight[i]; i++)
        if (strcmp(type, eight[i]) == 0)
            return 8;
    return 0;
}

/* 1 when consecutive steps of index are consecutive elements (either way):
 * a row walk, whose lanes read 32 lines a step */
static int along_row(const char *index, const char *loop_var)
{
    for (int trial = 0; trial < 4; trial++) {
        uint64_t at = 1000003ULL * (uint64_t)(trial + 3), here, next;
        if (!sweep_eval_index(index, loop_var, at, trial, &here) ||
            !sweep_eval_index(index, loop_var, at + 1, trial, &next))
            return 0;
        if (next - here != 1 && here - next != 1)
            return 0;
    }
    return 1;
}

static int plan_tiles(tile_plan *t, int steps, arena *a, const char **why)
{
    const sweep_plan *s = &t->s;
    const char *v = s->p.loop_var;
    for (size_t i = 0; i < s->n; i++) {
        const sweep_access *x = &s->acc[i];
        size_t j = 0;
        while (j < t->n && strcmp(t->arr[j].base, x->base) != 0)
            j++;
        if (j == t->n) {
            if (t->n == max_arrays) {
                *why = "too many arrays in the walk";
                return 1;
            }
            if (!along_row(x->index, v)) {
                *why = "an array is not walked along a row (a step's next element is not the next "
                       "one): its lanes' loads are coalesced already";
                return 1;
            }
            if (!element_size(x->type)) {
                *why = "an array's elements are not of an arithmetic type the tile knows";
                return 1;
            }
            tiled_array *n = &t->arr[t->n++];
            memset(n, 0, sizeof *n);
            n->base = x->base, n->type = x->type, n->index = x->index;
        }
        tiled_array *arr = &t->arr[j];
        int found;
        int d = sweep_distance(x->index, arr->index, v, &found);
        if (!found) {
            *why = "an access is no fixed number of steps from its array's first";
            return 1;
        }
        t->array_of[i] = (int)j, t->distance[i] = d;
        arr->dmin = d < arr->dmin ? d : arr->dmin;
        arr->dmax = d > arr->dmax ? d : arr->dmax;
        if (x->is_write) {
            arr->written = 1, arr->write_d = d;
        } else {
            size_t r = 0;
            while (r < arr->n_reads && arr->reads[r] != d)
                r++;
            if (r == arr->n_reads)
                arr->reads[arr->n_reads++] = d;
        }
    }
    size_t bytes = 0;
    for (size_t j = 0; j < t->n; j++) {
        tiled_array *arr = &t->arr[j];
        arr->width = steps + arr->dmax - arr->dmin;
        arr->at_row = stage_substitute(stage_substitute(arr->index, v, "cl1_p", a), s->p.thread_var[0],
                                       "cl1_row", a);
        bytes += 32 * (size_t)(arr->width | 1) * element_size(arr->type);
    }
    if (bytes > max_smem) {
        *why = "the tiles would not fit in 40 KB of shared memory";
        return 1;
    }
    return 0;
}

/* the columns of array j's tile that a step of this tile reads (or, with
 * write, writes) at distance d: step v = position - d in [v0, v0 + T) and
 * under the loop's bound */
static void column_condition(strbuf *sb, const tile_plan *t, const tiled_array *arr, int d, int steps)
{
    int first = d - arr->dmin;
    sb_printf(sb, "(cl1_c >= %d && cl1_c < %d && cl1_p - (%d) < (%s))", first, first + steps, d,
              t->s.p.upper);
}

/* the loop body with every array element replaced by its tile's */
static const char *render_step(const kernel *k, const tile_plan *t, arena *a)
{
    const stage_plan *p = &t->s.p;
    strbuf sb;
    sb_init(&sb);
    size_t at = p->body_begin;
    /* the accesses come in the order of their position (sweep_analyse) */
    for (size_t i = 0; i < t->s.n; i++) {
        const body_node *b = &k->body.items[t->s.acc[i].node];
        const tiled_array *arr = &t->arr[t->array_of[i]];
        sb_append(&sb, p->text + at, b->range.begin - at);
        sb_printf(&sb, "cl1_tile%d[cl1_lane][cl1_s + %d]", t->array_of[i], t->distance[i] - arr->dmin);
        at = b->range.end;
    }
    sb_append(&sb, p->text + at, p->body_end - at);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static int widest_tile(const tile_plan *t)
{
    int widest = 0;
    for (size_t j = 0; j < t->n; j++)
        widest = t->arr[j].width > widest ? t->arr[j].width : widest;
    return widest;
}

/* cl1_r and cl1_c of element cl1_e of a tile `width` columns wide, and
 * cl1_row, the thread index of row cl1_r */
static void emit_row(strbuf *sb, const tile_plan *t, int width)
{
    const char *tv = t->s.p.thread_var[0];
    sb_printf(sb, "\t\t\t\tconst int cl1_r = cl1_e / %d, cl1_c = cl1_e %% %d;\n", width, width);
    sb_printf(sb, "\t\t\t\tconst decltype(%s) cl1_row = %s - (decltype(%s))cl1_lane + (decltype(%s))cl1_r;\n", tv,
              tv, tv, tv);
}

/* emit_row for array j's tile, and cl1_p, the position of column cl1_c in
 * the tile at v0 (a variable) */
static void emit_coordinates(strbuf *sb, const tile_plan *t, size_t j, const char *v0)
{
    emit_row(sb, t, t->arr[j].width);
    sb_printf(sb, "\t\t\t\tconst %s cl1_p = %s + (%d) + cl1_c;\n", t->s.p.var_type, v0, t->arr[j].dmin);
}

/* the coordinates of element cl1_e of array j's tile at v0 (a variable):
 * row e / width (cl1_r, its thread index cl1_row), column e % width
 * (cl1_c, its position cl1_p) -- so that a warp's 32 accesses are
 * consecutive elements of one or two rows -- and `ok` (an lvalue) set to
 * whether a step of that tile reads (write 0) or wrote (write 1) it, in a
 * column from `from` on (from_text, a condition, or NULL: every column) */
static void emit_element(strbuf *sb, const tile_plan *t, size_t j, int steps, int write,
                         const char *row_guard, const char *v0, const char *ok, const char *from_text)
{
    const tiled_array *arr = &t->arr[j];
    emit_coordinates(sb, t, j, v0);
    sb_printf(sb, "\t\t\t\t%s = cl1_e < %d && (%s) && (", ok, 32 * arr->width, row_guard);
    if (write) {
        column_condition(sb, t, arr, arr->write_d, steps);
    } else {
        for (size_t r = 0; r < arr->n_reads; r++) {
            sb_puts(sb, r ? "\n\t\t\t\t    || " : "");
            column_condition(sb, t, arr, arr->reads[r], steps);
        }
    }
    sb_printf(sb, ")%s%s;\n", from_text ? " && " : "", from_text ? from_text : "");
}

/* the warp's pass over the tiles, loads (write 0) or stores (write 1) of
 * every array read (written) in the walk: `batch` elements a lane of each
 * array in flight at once, their loads all issued before any is used (a
 * load's use in the same slot would make each wait for the one before) */
static void emit_pass(strbuf *sb, const tile_plan *t, int steps, int write, int small, const char *row_guard,
                      arena *a)
{
    int widest = widest_tile(t);
    int batch = widest <= 40 ? (widest + 1) / 2 : (widest + 2) / 3 < 22 ? (widest + 2) / 3 : 22;
    if (small) /* beside the next tile's registers: stores need few in flight */
        batch = (widest + 5) / 6;
    sb_printf(sb, "\t\tfor (int cl1_i0 = 0; cl1_i0 < %d; cl1_i0 += %d) {\n", widest, batch);
    for (size_t j = 0; j < t->n; j++) {
        const tiled_array *arr = &t->arr[j];
        if (write ? !arr->written : !arr->n_reads)
            continue;
        sb_printf(sb, "\t\t\t%s cl1_x%zu[%d];\n\t\t\tbool cl1_ok%zu[%d];\n", arr->type, j, batch, j, batch);
    }
    /* first every slot's access of global memory (loads: into registers;
     * stores: the tile's values read first, then stored) */
    for (int phase = 0; phase < 2; phase++) {
        sb_printf(sb, "\t\t\t#pragma unroll\n\t\t\tfor (int cl1_u = 0; cl1_u < %d; cl1_u++) {\n", batch);
        sb_puts(sb, "\t\t\t\tconst int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;\n");
        for (size_t j = 0; j < t->n; j++) {
            const tiled_array *arr = &t->arr[j];
            if (write ? !arr->written : !arr->n_reads)
                continue;
            sb_puts(sb, "\t\t\t\t{\n");
            if (phase == 0) {
                emit_element(sb, t, j, steps, write, row_guard, "cl1_v0",
                             arena_printf(a, "cl1_ok%zu[cl1_u]", j), NULL);
                if (write)
                    sb_printf(sb, "\t\t\t\tif (cl1_ok%zu[cl1_u]) cl1_x%zu[cl1_u] = cl1_tile%zu[cl1_r][cl1_c];\n", j, j,
                              j);
                else
                    sb_printf(sb, "\t\t\t\tif (cl1_ok%zu[cl1_u]) cl1_x%zu[cl1_u] = %s[%s];\n", j, j, arr->base,
                              arr->at_row);
            } else {
                if (write) {
                    emit_coordinates(sb, t, j, "cl1_v0");
                    sb_printf(sb, "\t\t\t\tif (cl1_ok%zu[cl1_u]) %s[%s] = cl1_x%zu[cl1_u];\n", j, arr->base,
                              arr->at_row, j);
                } else {
                    sb_printf(sb, "\t\t\t\tconst int cl1_r = cl1_e / %d, cl1_c = cl1_e %% %d;\n", arr->width,
                              arr->width);
                    sb_printf(sb, "\t\t\t\tif (cl1_ok%zu[cl1_u]) cl1_tile%zu[cl1_r][cl1_c] = cl1_x%zu[cl1_u];\n", j,
                              j, j);
                }
            }
            sb_puts(sb, "\t\t\t\t}\n");
        }
        sb_puts(sb, "\t\t\t}\n");
    }
    sb_puts(sb, "\t\t}\n");
}

/* the columns of array j's tile that the tile before wrote and this one
 * reads: positions v0 + dmin .. v0 + write_d - 1 (0 for an array only read) */
static int halo_columns(const tiled_array *arr)
{
    return arr->written && arr->n_reads && arr->write_d > arr->dmin ? arr->write_d - arr->dmin : 0;
}

/* prefetch: the elements every read array's tile at v0 (a variable)
 * needs, loaded into registers (cl1_xJ[slot]); with skip_halo, not the
 * columns the tile before writes (halo_columns: the warp copies them from
 * that tile once its steps ran).  fill (prefetch 0): the registers into
 * the tile at cl1_v0, but for those columns after the first tile */
static void emit_registers(strbuf *sb, const tile_plan *t, int steps, int prefetch, const char *v0,
                           int skip_halo, const char *row_guard, arena *a)
{
    sb_printf(sb, "\t\t#pragma unroll\n\t\tfor (int cl1_i = 0; cl1_i < %d; cl1_i++) {\n", widest_tile(t));
    sb_puts(sb, "\t\t\tconst int cl1_e = cl1_i * 32 + (int)cl1_lane;\n");
    for (size_t j = 0; j < t->n; j++) {
        const tiled_array *arr = &t->arr[j];
        if (!arr->n_reads)
            continue;
        int halo = halo_columns(arr);
        const char *from = NULL;
        if (halo && prefetch && skip_halo)
            from = arena_printf(a, "cl1_c >= %d", halo);
        else if (halo && !prefetch)
            from = arena_printf(a, "(cl1_first || cl1_c >= %d)", halo);
        sb_puts(sb, "\t\t\t{\n\t\t\t\tbool cl1_ok;\n");
        emit_element(sb, t, j, steps, 0, row_guard, v0, "cl1_ok", from);
        if (prefetch)
            sb_printf(sb, "\t\t\t\tif (cl1_ok) cl1_x%zu[cl1_i] = %s[%s];\n", j, arr->base, arr->at_row);
        else
            sb_printf(sb, "\t\t\t\tif (cl1_ok) cl1_tile%zu[cl1_r][cl1_c] = cl1_x%zu[cl1_i];\n", j, j);
        sb_puts(sb, "\t\t\t}\n");
    }
    sb_puts(sb, "\t\t}\n");
}

/* the halo columns of each written array's tile from the tile before,
 * where that tile's steps left them (columns c + T) */
static void emit_halo(strbuf *sb, const tile_plan *t, int steps, const char *row_guard)
{
    for (size_t j = 0; j < t->n; j++) {
        int halo = halo_columns(&t->arr[j]);
        if (!halo)
            continue;
        sb_printf(sb, "\t\t\tfor (int cl1_e = (int)cl1_lane; cl1_e < %d; cl1_e += 32) {\n", 32 * halo);
        emit_row(sb, t, halo);
        sb_printf(sb, "\t\t\t\tif (%s) cl1_tile%zu[cl1_r][cl1_c] = cl1_tile%zu[cl1_r][cl1_c + %d];\n", row_guard, j, j,
                  steps);
        sb_puts(sb, "\t\t\t}\n");
    }
}

int pol_transform_sweep_tile(const tu_model *m, const kernel *k, const pol_facts *f, int steps, int prefetch,
                             arena *a, pol_edit_vec *out, const char **why)
{
    tile_plan t;
    memset(&t, 0, sizeof t);
    if (sweep_analyse(m, k, f, &t.s, a, why) || plan_tiles(&t, steps, a, why))
        return 1;
    const stage_plan *p = &t.s.p;
    const char *tv = p->thread_var[0];
    const char *row_guard = stage_substitute(p->cond, tv, "cl1_row", a);
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "if (cl1cc_slice == 32 && blockDim.x % 32 == 0) {\n");
    for (size_t j = 0; j < t.n; j++)
        sb_printf(&sb, "\t__shared__ %s cl1_tile%zu[32][%d];\n", t.arr[j].type, j, t.arr[j].width | 1);
    sb_puts(&sb, "\tconst unsigned cl1_lane = threadIdx.x % 32;\n");
    sb_printf(&sb, "\tconst bool cl1_in = (%s);\n", p->cond);
    if (prefetch) {
        /* the first tile's elements in registers before the walk */
        int widest = widest_tile(&t);
        for (size_t j = 0; j < t.n; j++)
            if (t.arr[j].n_reads)
                sb_printf(&sb, "\t%s cl1_x%zu[%d];\n", t.arr[j].type, j, widest);
        sb_printf(&sb, "\t{\n\t\tconst %s cl1_vn = (%s);\n\t\tif (cl1_vn < (%s)) {\n", p->var_type, p->lower,
                  p->upper);
        emit_registers(&sb, &t, steps, 1, "cl1_vn", 0, row_guard, a);
        sb_puts(&sb, "\t\t}\n\t}\n");
    }
    sb_printf(&sb, "\tfor (%s cl1_v0 = (%s); cl1_v0 < (%s); cl1_v0 += %d) {\n", p->var_type, p->lower, p->upper,
              steps);
    if (prefetch) {
        /* this tile from the registers (its halo from the tile before),
         * then the next tile's loads issued, to arrive while this one's
         * steps run: they touch no element this tile writes */
        sb_printf(&sb, "\t\tconst bool cl1_first = cl1_v0 == (%s);\n\t\tif (!cl1_first) {\n", p->lower);
        emit_halo(&sb, &t, steps, row_guard);
        sb_puts(&sb, "\t\t}\n\t\t__syncwarp();\n");
        emit_registers(&sb, &t, steps, 0, "cl1_v0", 0, row_guard, a);
        sb_printf(&sb, "\t\t__syncwarp();\n\t\t{\n\t\tconst %s cl1_vn = cl1_v0 + %d;\n\t\tif (cl1_vn < (%s)) {\n",
                  p->var_type, steps, p->upper);
        emit_registers(&sb, &t, steps, 1, "cl1_vn", 1, row_guard, a);
        sb_puts(&sb, "\t\t}\n\t\t}\n");
    } else {
        emit_pass(&sb, &t, steps, 0, 0, row_guard, a);
        sb_puts(&sb, "\t\t__syncwarp();\n");
    }
    /* a whole tile's steps without a test between them, one block: the
     * compiler keeps a value a step stores for the next step's read (a
     * test a step would make each read wait for the store before it) */
    const char *step = render_step(k, &t, a);
    sb_printf(&sb, "\t\tif (cl1_in && cl1_v0 + %d <= (%s)) {\n", steps, p->upper);
    sb_printf(&sb, "\t\t\t#pragma unroll\n\t\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", steps);
    sb_printf(&sb, "\t\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\t\t(void)%s;\n\t\t\t\t%s\n\t\t\t}\n", p->var_type,
              p->loop_var, p->loop_var, step);
    sb_puts(&sb, "\t\t} else if (cl1_in) {\n");
    sb_printf(&sb, "\t\t\t#pragma unroll\n\t\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", steps);
    sb_printf(&sb, "\t\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\t\tif (%s < (%s))\n\t\t\t\t%s\n\t\t\t}\n",
              p->var_type, p->loop_var, p->loop_var, p->upper, step);
    sb_puts(&sb, "\t\t}\n\t\t__syncwarp();\n");
    emit_pass(&sb, &t, steps, 1, prefetch, row_guard, a);
    sb_puts(&sb, "\t\t__syncwarp();\n\t}\n");
    stage_replace_guard(k, p, sb_str(&sb), NULL, a, out);
    sb_free(&sb);
    return 0;
}
