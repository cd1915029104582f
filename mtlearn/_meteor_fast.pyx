# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of METEOR's alignment fast path (``mtlearn.meteor_alignment``, ``meteor_blocks``, ``meteor_groups``).

Optional: built when a C compiler is present at install time; without it mtlearn
runs the same rule in pure Python. This module mirrors, step for step, the pure
Python functions named in the comments below, for the crossings rule and stages
whose words have one key (exact, stem) or sets of keys (synonyms), so that its
alignments, node counts and "optimal" flags are the Python ones exactly (tests
compare the two on every WMT22 segment and on random cases checked by brute
force). Where the Python path would leave the dynamic programmes for its general
search (a synonym component that is not complete, a group of blocks too big for
the branch and bound, a table too large), this module gives the segment back and
Python aligns it.

Words are integer ids. Each stage is described by an int kind (0: the word is its
own key, 1: one key per word, from ``key_of``; 2: sets of keys, ``indptr`` and
``indices`` in compressed rows, each row sorted) and its arrays.
"""

from cpython cimport array as carray
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memset

import array

cdef carray.array _INT_ARRAY = array.array("i")

cdef int UNMATCHED = 2147483647

# The limits of mtlearn.meteor_alignment (passed in by the caller, see align_many).
cdef int ENUMERATE_LIMIT = 24
cdef int CHOICE_LIMIT = 400
cdef int CHOICE_NODES = 4000
cdef int DEPTH_LIMIT = 400
cdef int TABLE_LIMIT = 20000
cdef int GROUPING_LIMIT = 2000
cdef int SMALL_GROUP = 12
cdef int ENUMERATE_NODES = 2000


# --------------------------------------------------------------------------- small helpers

cdef struct IntVec:
    int *data
    int size
    int cap


cdef int vec_push(IntVec *v, int x) except -1:
    cdef int *grown
    if v.size == v.cap:
        v.cap = v.cap * 2 + 8
        grown = <int *> realloc(v.data, v.cap * sizeof(int))
        if grown == NULL:
            raise MemoryError()
        v.data = grown
    v.data[v.size] = x
    v.size += 1
    return 0


cdef inline void vec_free(IntVec *v):
    free(v.data)
    v.data = NULL
    v.size = 0
    v.cap = 0


cdef int cmp_pair(const void *a, const void *b) noexcept nogil:
    # pairs stored as two consecutive ints (i, j): order by i, then j
    cdef const int *x = <const int *> a
    cdef const int *y = <const int *> b
    if x[0] != y[0]:
        return -1 if x[0] < y[0] else 1
    if x[1] != y[1]:
        return -1 if x[1] < y[1] else 1
    return 0


cdef int cmp_triple(const void *a, const void *b) noexcept nogil:
    cdef const int *x = <const int *> a
    cdef const int *y = <const int *> b
    cdef int k
    for k in range(3):
        if x[k] != y[k]:
            return -1 if x[k] < y[k] else 1
    return 0


cdef long long n_choose_k(int n, int k):
    # math.comb, saturating far above every limit used here
    cdef long long result = 1
    cdef int t
    if k < 0 or k > n:
        return 0
    if k > n - k:
        k = n - k
    for t in range(1, k + 1):
        result = result * (n - k + t) // t
        if result > 1000000000:
            return 1000000000
    return result


cdef int count_crossings_sorted(int *pi, int *pj, int n) except -1:
    # _count_crossings: pairs sorted by candidate index, the inversions of pj: counted
    # pair by pair for a short alignment, by merge sort (O(n log n)) for a long one.
    cdef int a, b, count = 0
    cdef int *tmp
    if n < 64:
        for a in range(n):
            for b in range(a + 1, n):
                if pj[b] < pj[a]:
                    count += 1
        return count
    tmp = <int *> malloc(2 * n * sizeof(int))
    if tmp == NULL:
        raise MemoryError()
    memcpy(tmp, pj, n * sizeof(int))
    count = <int> merge_count(tmp, tmp + n, n)
    free(tmp)
    return count


cdef long long merge_count(int *a, int *buf, int n) noexcept:
    cdef long long inv = 0
    cdef int mid, i, j, k
    if n < 2:
        return 0
    mid = n // 2
    inv += merge_count(a, buf, mid)
    inv += merge_count(a + mid, buf, n - mid)
    i = 0
    j = mid
    k = 0
    while i < mid and j < n:
        if a[j] < a[i]:
            buf[k] = a[j]
            inv += mid - i
            j += 1
        else:
            buf[k] = a[i]
            i += 1
        k += 1
    while i < mid:
        buf[k] = a[i]
        i += 1
        k += 1
    while j < n:
        buf[k] = a[j]
        j += 1
        k += 1
    memcpy(a, buf, n * sizeof(int))
    return inv


# --------------------------------------------------------------------------- blocks

cdef struct Block:
    int nc
    int nr
    int *cands   # candidate positions, sorted
    int *refs    # reference positions, sorted


cdef int block_optimum(Block *blk, int *table, int *out_i, int *out_j) except -2:
    """_block_optimum: the cheapest in-order mappings of a block, the tie-break's choice.

    Writes min(nc, nr) pairs to out_i/out_j; returns their total weight."""
    cdef int nc = blk.nc, nr = blk.nr
    cdef bint small_is_cands = nc <= nr
    cdef int r = nc if small_is_cands else nr
    cdef int slack = (nr if small_is_cands else nc) - r
    cdef int width = slack + 1
    cdef int q, d, v, m, target, spent
    cdef int *rows = <int *> malloc(r * width * sizeof(int))
    cdef int *best = <int *> malloc(r * width * sizeof(int))
    cdef int *tail = <int *> malloc(width * sizeof(int))
    if rows == NULL or best == NULL or tail == NULL:
        free(rows)
        free(best)
        free(tail)
        raise MemoryError()
    for q in range(r):
        for d in range(width):
            if small_is_cands:
                rows[q * width + d] = table[q * nr + q + d]
            else:
                rows[q * width + d] = table[(q + d) * nr + q]
    # best[q][d]: word q at offset d plus the cheapest completion (offsets >= d)
    for d in range(width):
        best[(r - 1) * width + d] = rows[(r - 1) * width + d]
    for q in range(r - 2, -1, -1):
        m = best[(q + 1) * width + slack]
        for d in range(slack, -1, -1):
            v = best[(q + 1) * width + d]
            if v < m:
                m = v
            tail[d] = m
        for d in range(width):
            best[q * width + d] = rows[q * width + d] + tail[d]
    target = best[0]
    for d in range(1, width):
        if best[d] < target:
            target = best[d]
    spent = 0
    d = 0
    for q in range(r):
        while spent + best[q * width + d] != target:
            d += 1
        spent += rows[q * width + d]
        if small_is_cands:
            out_i[q] = blk.cands[q]
            out_j[q] = blk.refs[q + d]
        else:
            out_i[q] = blk.cands[q + d]
            out_j[q] = blk.refs[q]
    free(rows)
    free(best)
    free(tail)
    return target


cdef int crossing_weights(int n_ctx, int *ctx_i, int *ctx_j, int n_ref,
                          int n_blocks, Block *blocks, int **tables) except -1:
    """_crossing_weights: tables[b][a * nr + x] = context mappings (cands[a], refs[x]) crosses.

    ctx_i is sorted; a Fenwick tree over reference positions counts the context
    references left of the current candidate word below j."""
    cdef int b, a, x, k, i, j, pos, n_left, below, below_all
    cdef int *order          # (i, b, a) triples, sorted
    cdef int *fen = <int *> calloc(n_ref + 1, sizeof(int))
    cdef int *all_below = <int *> calloc(n_ref + 1, sizeof(int))  # context refs < j
    cdef int n_items = 0
    if fen == NULL or all_below == NULL:
        free(fen)
        free(all_below)
        raise MemoryError()
    for k in range(n_ctx):
        all_below[ctx_j[k] + 1] += 1
    for j in range(n_ref):
        all_below[j + 1] += all_below[j]
    for b in range(n_blocks):
        n_items += blocks[b].nc
    order = <int *> malloc(3 * n_items * sizeof(int) + 1)
    if order == NULL:
        free(fen)
        free(all_below)
        raise MemoryError()
    n_items = 0
    for b in range(n_blocks):
        for a in range(blocks[b].nc):
            order[3 * n_items] = blocks[b].cands[a]
            order[3 * n_items + 1] = b
            order[3 * n_items + 2] = a
            n_items += 1
    qsort(order, n_items, 3 * sizeof(int), cmp_triple)
    k = 0
    n_left = 0
    for pos in range(n_items):
        i = order[3 * pos]
        b = order[3 * pos + 1]
        a = order[3 * pos + 2]
        while k < n_ctx and ctx_i[k] < i:
            x = ctx_j[k] + 1
            while x <= n_ref:
                fen[x] += 1
                x += x & (-x)
            n_left += 1
            k += 1
        for x in range(blocks[b].nr):
            j = blocks[b].refs[x]
            below = 0
            pos_f = j  # Fenwick prefix over positions < j: indices 1..j
            while pos_f > 0:
                below += fen[pos_f]
                pos_f -= pos_f & (-pos_f)
            below_all = all_below[j]
            tables[b][a * blocks[b].nr + x] = n_left - 2 * below + below_all
    free(order)
    free(fen)
    free(all_below)
    return 0


cdef int crossing_block_flags(int n, int *pi, int *pj, int *pb, int *flags) except -1:
    """_crossing_blocks: flags[b] = 1 for every block with a mapping that crosses another.

    A mapping crosses some other one iff an earlier mapping (smaller i) has a larger j
    or a later one a smaller j. pi/pj/pb are parallel arrays of n pairs and their blocks."""
    cdef int *idx = <int *> malloc(3 * n * sizeof(int) + 1)
    cdef int t, running
    if idx == NULL:
        raise MemoryError()
    for t in range(n):
        idx[3 * t] = pi[t]
        idx[3 * t + 1] = pj[t]
        idx[3 * t + 2] = pb[t]
    qsort(idx, n, 3 * sizeof(int), cmp_triple)
    running = -1
    for t in range(n):
        if running > idx[3 * t + 1]:
            flags[idx[3 * t + 2]] = 1
        if idx[3 * t + 1] > running:
            running = idx[3 * t + 1]
    running = UNMATCHED
    for t in range(n - 1, -1, -1):
        if running < idx[3 * t + 1]:
            flags[idx[3 * t + 2]] = 1
        if idx[3 * t + 1] < running:
            running = idx[3 * t + 1]
    free(idx)
    return 0


cdef int pairs_crossing(int na, int *ai, int *aj, int nb, int *bi, int *bj) noexcept:
    # _pairs_crossing
    cdef int x, y, count = 0
    for x in range(na):
        for y in range(nb):
            if (ai[x] < bi[y]) != (aj[x] < bj[y]):
                count += 1
    return count


# Every in-order choice of a block (_block_choices): weights and pairs, sorted by weight
# (stable). A choice's pairs are r consecutive (i, j) entries.
cdef struct Choices:
    int count
    int r
    int *weight
    int *pi
    int *pj


cdef int block_choices(Block *blk, int *table, Choices *out) except -1:
    cdef int nc = blk.nc, nr = blk.nr
    cdef bint small_is_cands = nc <= nr
    cdef int r = nc if small_is_cands else nr
    cdef int n = nr if small_is_cands else nc
    cdef long long total = n_choose_k(n, r)
    cdef int count = <int> total, c, t, w, a, x
    cdef int *comb = <int *> malloc((r + 1) * sizeof(int))
    cdef int *w_tmp
    cdef int *i_tmp
    cdef int *j_tmp
    cdef int *perm
    out.count = count
    out.r = r
    out.weight = <int *> malloc(count * sizeof(int) + 1)
    out.pi = <int *> malloc(count * r * sizeof(int) + 1)
    out.pj = <int *> malloc(count * r * sizeof(int) + 1)
    if comb == NULL or out.weight == NULL or out.pi == NULL or out.pj == NULL:
        free(comb)
        raise MemoryError()
    for t in range(r):
        comb[t] = t
    for c in range(count):
        w = 0
        for t in range(r):
            if small_is_cands:
                a = t
                x = comb[t]
            else:
                a = comb[t]
                x = t
            w += table[a * nr + x]
            out.pi[c * r + t] = blk.cands[a]
            out.pj[c * r + t] = blk.refs[x]
        out.weight[c] = w
        # next combination in lexicographic order (itertools.combinations)
        t = r - 1
        while t >= 0 and comb[t] == n - r + t:
            t -= 1
        if t < 0:
            break
        comb[t] += 1
        for a in range(t + 1, r):
            comb[a] = comb[a - 1] + 1
    free(comb)
    # stable sort by weight: insertion into an index permutation
    perm = <int *> malloc(count * sizeof(int) + 1)
    w_tmp = <int *> malloc(count * sizeof(int) + 1)
    i_tmp = <int *> malloc(count * r * sizeof(int) + 1)
    j_tmp = <int *> malloc(count * r * sizeof(int) + 1)
    if perm == NULL or w_tmp == NULL or i_tmp == NULL or j_tmp == NULL:
        free(perm)
        free(w_tmp)
        free(i_tmp)
        free(j_tmp)
        raise MemoryError()
    for c in range(count):
        t = c
        while t > 0 and out.weight[perm[t - 1]] > out.weight[c]:
            perm[t] = perm[t - 1]
            t -= 1
        perm[t] = c
    for c in range(count):
        w_tmp[c] = out.weight[perm[c]]
        memcpy(i_tmp + c * r, out.pi + perm[c] * r, r * sizeof(int))
        memcpy(j_tmp + c * r, out.pj + perm[c] * r, r * sizeof(int))
    free(out.weight)
    free(out.pi)
    free(out.pj)
    free(perm)
    out.weight = w_tmp
    out.pi = i_tmp
    out.pj = j_tmp
    return 0


cdef inline void choices_free(Choices *c):
    free(c.weight)
    free(c.pi)
    free(c.pj)
    c.weight = NULL
    c.pi = NULL
    c.pj = NULL


cdef int crossing_table(Block *blk, int *table, int n_others, int *oi, int *oj,
                        int **out) except -1:
    """_crossing_table: ``table`` plus crossings with the given mappings.

    Sets *out to ``table`` itself when no given mapping can cross the block (then no
    copy is made), else to a new table the caller frees."""
    cdef int c_lo = blk.cands[0], c_hi = blk.cands[blk.nc - 1]
    cdef int r_lo = blk.refs[0], r_hi = blk.refs[blk.nr - 1]
    cdef int t, a, x, i, j, relevant = 0, extra
    cdef int *new_table
    for t in range(n_others):
        if not ((oi[t] > c_hi and oj[t] > r_hi) or (oi[t] < c_lo and oj[t] < r_lo)):
            relevant = 1
            break
    if not relevant:
        out[0] = table
        return 0
    new_table = <int *> malloc(blk.nc * blk.nr * sizeof(int))
    if new_table == NULL:
        raise MemoryError()
    for a in range(blk.nc):
        i = blk.cands[a]
        for x in range(blk.nr):
            j = blk.refs[x]
            extra = 0
            for t in range(n_others):
                if (oi[t] > c_hi and oj[t] > r_hi) or (oi[t] < c_lo and oj[t] < r_lo):
                    continue
                if (oi[t] < i) != (oj[t] < j):
                    extra += 1
            new_table[a * blk.nr + x] = table[a * blk.nr + x] + extra
    out[0] = new_table
    return 0


# --------------------------------------------------------------------------- enumeration

cdef int seq_less(int n_pos, int *positions, int n_a, int *ai, int *aj,
                  int n_b, int *bi, int *bj, int *scratch_a, int *scratch_b) noexcept:
    """Whether pairs a read as reference positions in candidate order (unmatched last)
    are lexicographically smaller than pairs b. Both pair lists sorted by i."""
    cdef int t, k
    # scatter into per-position sequences
    k = 0
    for t in range(n_pos):
        while k < n_a and ai[k] < positions[t]:
            k += 1
        scratch_a[t] = aj[k] if (k < n_a and ai[k] == positions[t]) else UNMATCHED
    k = 0
    for t in range(n_pos):
        while k < n_b and bi[k] < positions[t]:
            k += 1
        scratch_b[t] = bj[k] if (k < n_b and bi[k] == positions[t]) else UNMATCHED
    for t in range(n_pos):
        if scratch_a[t] != scratch_b[t]:
            return scratch_a[t] < scratch_b[t]
    return 0


cdef int sort_pairs(int n, int *pi, int *pj) except -1:
    cdef int *tmp = <int *> malloc(2 * n * sizeof(int) + 1)
    cdef int t
    if tmp == NULL:
        raise MemoryError()
    for t in range(n):
        tmp[2 * t] = pi[t]
        tmp[2 * t + 1] = pj[t]
    qsort(tmp, n, 2 * sizeof(int), cmp_pair)
    for t in range(n):
        pi[t] = tmp[2 * t]
        pj[t] = tmp[2 * t + 1]
    free(tmp)
    return 0


cdef int try_every_choice(int n_blocks, Block *blocks, int **tables, IntVec *out_i,
                          IntVec *out_j) except -1:
    """_try_every_choice: every combination of the blocks' choices; the cheapest, then
    the lexicographically smallest."""
    cdef Choices *opts = <Choices *> calloc(n_blocks, sizeof(Choices))
    cdef int *digit = <int *> calloc(n_blocks, sizeof(int))
    cdef int b, a, total_pairs = 0, n_pos = 0, cost, best_cost = -1, k, t
    cdef int *cur_i
    cdef int *cur_j
    cdef int *best_i
    cdef int *best_j
    cdef int *positions
    cdef int *sa
    cdef int *sb
    if opts == NULL or digit == NULL:
        free(opts)
        free(digit)
        raise MemoryError()
    for b in range(n_blocks):
        block_choices(&blocks[b], tables[b], &opts[b])
        total_pairs += opts[b].r
        n_pos += blocks[b].nc
    cur_i = <int *> malloc(total_pairs * sizeof(int) + 1)
    cur_j = <int *> malloc(total_pairs * sizeof(int) + 1)
    best_i = <int *> malloc(total_pairs * sizeof(int) + 1)
    best_j = <int *> malloc(total_pairs * sizeof(int) + 1)
    positions = <int *> malloc(n_pos * sizeof(int) + 1)
    sa = <int *> malloc(n_pos * sizeof(int) + 1)
    sb = <int *> malloc(n_pos * sizeof(int) + 1)
    k = 0
    for b in range(n_blocks):
        for a in range(blocks[b].nc):
            positions[k] = blocks[b].cands[a]
            k += 1
    qsort(positions, n_pos, sizeof(int), cmp_int)
    while True:
        cost = 0
        for b in range(n_blocks):
            cost += opts[b].weight[digit[b]]
        for a in range(1, n_blocks):
            for b in range(a):
                cost += pairs_crossing(opts[a].r, opts[a].pi + digit[a] * opts[a].r,
                                       opts[a].pj + digit[a] * opts[a].r,
                                       opts[b].r, opts[b].pi + digit[b] * opts[b].r,
                                       opts[b].pj + digit[b] * opts[b].r)
        if best_cost < 0 or cost <= best_cost:
            k = 0
            for b in range(n_blocks):
                for t in range(opts[b].r):
                    cur_i[k] = opts[b].pi[digit[b] * opts[b].r + t]
                    cur_j[k] = opts[b].pj[digit[b] * opts[b].r + t]
                    k += 1
            sort_pairs(total_pairs, cur_i, cur_j)
            if best_cost < 0 or cost < best_cost or seq_less(
                    n_pos, positions, total_pairs, cur_i, cur_j, total_pairs, best_i, best_j, sa, sb):
                best_cost = cost
                memcpy(best_i, cur_i, total_pairs * sizeof(int))
                memcpy(best_j, cur_j, total_pairs * sizeof(int))
        # next combination (itertools.product order: last digit fastest)
        b = n_blocks - 1
        while b >= 0:
            digit[b] += 1
            if digit[b] < opts[b].count:
                break
            digit[b] = 0
            b -= 1
        if b < 0:
            break
    for t in range(total_pairs):
        vec_push(out_i, best_i[t])
        vec_push(out_j, best_j[t])
    for b in range(n_blocks):
        choices_free(&opts[b])
    free(opts)
    free(digit)
    free(cur_i)
    free(cur_j)
    free(best_i)
    free(best_j)
    free(positions)
    free(sa)
    free(sb)
    return 0


cdef int cmp_int(const void *a, const void *b) noexcept nogil:
    cdef int x = (<const int *> a)[0], y = (<const int *> b)[0]
    return -1 if x < y else (1 if x > y else 0)


# --------------------------------------------------------------------------- branch and bound

# One open block of a subproblem (an entry of _Blocks): its table (owned or borrowed),
# its own optimum's value and pairs.
cdef struct OpenBlock:
    int block
    int *table
    bint owned
    int value
    int *pi
    int *pj


cdef struct Search:
    int n_blocks
    Block *blocks
    long long *n_choices
    char *near           # n_blocks x n_blocks
    int n_pos
    int *positions
    int nodes
    int node_limit
    bint give_up
    int *scratch_a
    int *scratch_b


cdef int search_solve(Search *s, OpenBlock *open_blocks, int n_open, int limit,
                      int *found_cost, IntVec *found_i, IntVec *found_j) except -1:
    """_choose_block_subsets.solve: 1 and the best alignment of the open blocks if its
    cost is at most ``limit``, 0 if there is none; s.give_up set to stop everything."""
    cdef int bound = 0, t, u, b, c, r, n_pairs, x, k, best_found = 0, best_cost = 0
    cdef int total, unsolved, part_value, got, sub_cost, w, others, value_b
    cdef int *pi
    cdef int *pj
    cdef int *pb
    cdef int *flags
    cdef int *part_of
    cdef int *stack
    cdef int n_parts, n_sub, top, chosen_block, chosen_t
    cdef OpenBlock *sub
    cdef OpenBlock *rest
    cdef IntVec sub_i, sub_j, best_i, best_j
    cdef Choices choices
    cdef int *new_table
    s.nodes += 1
    if s.nodes > s.node_limit:
        s.give_up = 1
        return 0
    for t in range(n_open):
        bound += open_blocks[t].value
    if bound > limit:
        return 0
    # do the open blocks' own optima cross one another?
    n_pairs = 0
    for t in range(n_open):
        n_pairs += min(s.blocks[open_blocks[t].block].nc, s.blocks[open_blocks[t].block].nr)
    pi = <int *> malloc(n_pairs * sizeof(int) + 1)
    pj = <int *> malloc(n_pairs * sizeof(int) + 1)
    pb = <int *> malloc(n_pairs * sizeof(int) + 1)
    flags = <int *> calloc(n_open + 1, sizeof(int))
    if pi == NULL or pj == NULL or pb == NULL or flags == NULL:
        free(pi)
        free(pj)
        free(pb)
        free(flags)
        raise MemoryError()
    k = 0
    for t in range(n_open):
        r = min(s.blocks[open_blocks[t].block].nc, s.blocks[open_blocks[t].block].nr)
        for x in range(r):
            pi[k] = open_blocks[t].pi[x]
            pj[k] = open_blocks[t].pj[x]
            pb[k] = t
            k += 1
    crossing_block_flags(n_pairs, pi, pj, pb, flags)
    free(pb)
    x = 0
    for t in range(n_open):
        x += flags[t]
    if x == 0:
        found_cost[0] = bound
        for t in range(n_pairs):
            vec_push(found_i, pi[t])
            vec_push(found_j, pj[t])
        free(pi)
        free(pj)
        free(flags)
        return 1
    free(pi)
    free(pj)
    # independent parts (parts(): ascending first block, members sorted)
    part_of = <int *> malloc(n_open * sizeof(int) + 1)
    stack = <int *> malloc(n_open * sizeof(int) + 1)
    for t in range(n_open):
        part_of[t] = -1
    n_parts = 0
    for t in range(n_open):
        if part_of[t] >= 0:
            continue
        part_of[t] = n_parts
        top = 0
        stack[top] = t
        top += 1
        while top > 0:
            top -= 1
            u = stack[top]
            for c in range(n_open):
                if part_of[c] < 0 and s.near[open_blocks[u].block * s.n_blocks + open_blocks[c].block]:
                    part_of[c] = n_parts
                    stack[top] = c
                    top += 1
        n_parts += 1
    free(stack)
    if n_parts > 1:
        total = 0
        unsolved = bound
        sub = <OpenBlock *> malloc(n_open * sizeof(OpenBlock) + 1)
        if sub == NULL:
            raise MemoryError()
        for k in range(n_parts):
            n_sub = 0
            part_value = 0
            for t in range(n_open):  # open blocks are in ascending block order
                if part_of[t] == k:
                    sub[n_sub] = open_blocks[t]
                    sub[n_sub].owned = 0  # borrowed: whoever made the entry frees it
                    n_sub += 1
                    part_value += open_blocks[t].value
            unsolved -= part_value
            sub_cost = 0
            got = search_solve(s, sub, n_sub, limit - total - unsolved, &sub_cost, found_i, found_j)
            if s.give_up or not got:
                free(sub)
                free(part_of)
                free(flags)
                return 0
            total += sub_cost
        free(sub)
        free(part_of)
        free(flags)
        found_cost[0] = total
        return 1
    free(part_of)
    # branch on the crossing block with the fewest choices (ties: smallest block number)
    chosen_t = -1
    for t in range(n_open):
        if flags[t]:
            if chosen_t < 0 or s.n_choices[open_blocks[t].block] < s.n_choices[open_blocks[chosen_t].block]:
                chosen_t = t
    free(flags)
    chosen_block = open_blocks[chosen_t].block
    if s.n_choices[chosen_block] > CHOICE_LIMIT:
        s.give_up = 1
        return 0
    value_b = open_blocks[chosen_t].value
    others = bound - value_b
    block_choices(&s.blocks[chosen_block], open_blocks[chosen_t].table, &choices)
    rest = <OpenBlock *> malloc(n_open * sizeof(OpenBlock) + 1)
    best_i.data = NULL
    best_i.size = best_i.cap = 0
    best_j.data = NULL
    best_j.size = best_j.cap = 0
    sub_i.data = NULL
    sub_i.size = sub_i.cap = 0
    sub_j.data = NULL
    sub_j.size = sub_j.cap = 0
    for c in range(choices.count):
        w = choices.weight[c]
        if w + others > limit:
            break
        # the other open blocks against this choice
        k = 0
        for t in range(n_open):
            if t == chosen_t:
                continue
            b = open_blocks[t].block
            rest[k] = open_blocks[t]
            rest[k].owned = 0
            if s.near[chosen_block * s.n_blocks + b]:
                crossing_table(&s.blocks[b], open_blocks[t].table, choices.r,
                               choices.pi + c * choices.r, choices.pj + c * choices.r, &new_table)
                if new_table != open_blocks[t].table:
                    r = min(s.blocks[b].nc, s.blocks[b].nr)
                    rest[k].table = new_table
                    rest[k].owned = 1
                    rest[k].pi = <int *> malloc(r * sizeof(int))
                    rest[k].pj = <int *> malloc(r * sizeof(int))
                    rest[k].value = block_optimum(&s.blocks[b], new_table, rest[k].pi, rest[k].pj)
            k += 1
        sub_i.size = 0
        sub_j.size = 0
        sub_cost = 0
        got = search_solve(s, rest, k, limit - w, &sub_cost, &sub_i, &sub_j)
        for t in range(k):
            if rest[t].owned:
                free(rest[t].table)
                free(rest[t].pi)
                free(rest[t].pj)
        if s.give_up:
            break
        if not got:
            continue
        sub_cost += w
        for t in range(choices.r):
            vec_push(&sub_i, choices.pi[c * choices.r + t])
            vec_push(&sub_j, choices.pj[c * choices.r + t])
        sort_pairs(sub_i.size, sub_i.data, sub_j.data)
        if not best_found or sub_cost < best_cost or seq_less(
                s.n_pos, s.positions, sub_i.size, sub_i.data, sub_j.data,
                best_i.size, best_i.data, best_j.data, s.scratch_a, s.scratch_b):
            best_found = 1
            best_cost = sub_cost
            best_i.size = 0
            best_j.size = 0
            for t in range(sub_i.size):
                vec_push(&best_i, sub_i.data[t])
                vec_push(&best_j, sub_j.data[t])
            limit = sub_cost
    free(rest)
    choices_free(&choices)
    vec_free(&sub_i)
    vec_free(&sub_j)
    if s.give_up or not best_found:
        vec_free(&best_i)
        vec_free(&best_j)
        return 0
    found_cost[0] = best_cost
    for t in range(best_i.size):
        vec_push(found_i, best_i.data[t])
        vec_push(found_j, best_j.data[t])
    vec_free(&best_i)
    vec_free(&best_j)
    return 1


cdef int choose_block_subsets(int n_blocks, Block *blocks, int **tables, int *own_value,
                              int **own_i, int **own_j, int *budget, IntVec *out_i,
                              IntVec *out_j) except -2:
    """_choose_block_subsets: 1 and the group's optimum in out_i/out_j, or 0 (given up).

    budget[0] is what is left, budget[1] what was used."""
    cdef Search s
    cdef int b, c, t, k, r, n_pairs = 0, first, found_cost = 0, got
    cdef OpenBlock *root
    cdef int *pi
    cdef int *pj
    cdef IntVec fi, fj
    s.n_blocks = n_blocks
    s.blocks = blocks
    s.n_choices = <long long *> malloc(n_blocks * sizeof(long long))
    s.near = <char *> calloc(n_blocks * n_blocks, 1)
    s.n_pos = 0
    for b in range(n_blocks):
        s.n_pos += blocks[b].nc
        s.n_choices[b] = n_choose_k(max(blocks[b].nc, blocks[b].nr), min(blocks[b].nc, blocks[b].nr))
    for b in range(n_blocks):
        for c in range(n_blocks):
            if c != b and not boxes_apart(&blocks[b], &blocks[c]):
                s.near[b * n_blocks + c] = 1
    s.positions = <int *> malloc(s.n_pos * sizeof(int) + 1)
    s.scratch_a = <int *> malloc(s.n_pos * sizeof(int) + 1)
    s.scratch_b = <int *> malloc(s.n_pos * sizeof(int) + 1)
    k = 0
    for b in range(n_blocks):
        for t in range(blocks[b].nc):
            s.positions[k] = blocks[b].cands[t]
            k += 1
    qsort(s.positions, s.n_pos, sizeof(int), cmp_int)
    s.nodes = 0
    s.node_limit = CHOICE_NODES if CHOICE_NODES < budget[0] else budget[0]
    s.give_up = 0
    root = <OpenBlock *> malloc(n_blocks * sizeof(OpenBlock) + 1)
    first = 0
    for b in range(n_blocks):
        root[b].block = b
        root[b].table = tables[b]
        root[b].owned = 0
        root[b].value = own_value[b]
        root[b].pi = own_i[b]
        root[b].pj = own_j[b]
        first += own_value[b]
        n_pairs += min(blocks[b].nc, blocks[b].nr)
    pi = <int *> malloc(n_pairs * sizeof(int) + 1)
    pj = <int *> malloc(n_pairs * sizeof(int) + 1)
    k = 0
    for b in range(n_blocks):
        r = min(blocks[b].nc, blocks[b].nr)
        for t in range(r):
            pi[k] = own_i[b][t]
            pj[k] = own_j[b][t]
            k += 1
    sort_pairs(n_pairs, pi, pj)
    first += count_crossings_sorted(pi, pj, n_pairs)
    free(pi)
    free(pj)
    fi.data = NULL
    fi.size = fi.cap = 0
    fj.data = NULL
    fj.size = fj.cap = 0
    got = search_solve(&s, root, n_blocks, first, &found_cost, &fi, &fj)
    free(root)
    free(s.n_choices)
    free(s.near)
    free(s.positions)
    free(s.scratch_a)
    free(s.scratch_b)
    if s.give_up or not got:
        vec_free(&fi)
        vec_free(&fj)
        return 0
    budget[1] += s.nodes
    budget[0] -= s.nodes
    for t in range(fi.size):
        vec_push(out_i, fi.data[t])
        vec_push(out_j, fj.data[t])
    vec_free(&fi)
    vec_free(&fj)
    return 1


cdef int uf_find(int *parent, int x) noexcept:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


cdef inline bint boxes_apart(Block *x, Block *y) noexcept:
    # one block's box (first to last candidate and reference position) lies wholly
    # below-left of the other's: no mapping of one can cross a mapping of the other
    return ((x.cands[x.nc - 1] < y.cands[0] and x.refs[x.nr - 1] < y.refs[0])
            or (y.cands[y.nc - 1] < x.cands[0] and y.refs[y.nr - 1] < x.refs[0]))


cdef void group_by_boxes(int n, Block *blocks, int *parent) noexcept:
    """_box_groups / _groups: a union-find ``parent`` joining blocks whose boxes (first and
    last candidate and reference position) are not one below-left of the other;
    beyond GROUPING_LIMIT blocks, one group."""
    cdef int b, c, t, k
    for b in range(n):
        parent[b] = 0 if n > GROUPING_LIMIT else b
    if n > GROUPING_LIMIT:
        return
    for b in range(n):
        for c in range(b + 1, n):
            if not boxes_apart(&blocks[b], &blocks[c]):
                t = uf_find(parent, b)
                k = uf_find(parent, c)
                if t != k:
                    parent[t] = k


cdef bint first_of_group(int *parent, int b) noexcept:
    # is b the smallest member of its group? (groups are taken in that order)
    cdef int c, g = uf_find(parent, b)
    for c in range(b):
        if uf_find(parent, c) == g:
            return 0
    return 1


cdef int solve_complete_blocks(int n_blocks, Block *blocks, int n_ctx, int *ctx_i, int *ctx_j,
                               int n_ref, int *budget, IntVec *out_i, IntVec *out_j) except -2:
    """_solve_complete_blocks: 1 and the mappings (all proven optimal), or 0: Python decides."""
    cdef int b, c, t, k, r, n_pairs = 0, any_flag = 0, result = 1, g
    cdef long long product
    cdef int depth
    cdef int **tables
    cdef int *own_value
    cdef int **own_i
    cdef int **own_j
    cdef int *pi
    cdef int *pj
    cdef int *pb
    cdef int *flags
    cdef int *parent
    cdef int *members
    cdef int n_members
    cdef Block *gblocks
    cdef int **gtables
    cdef int *gvalue
    cdef int **gi
    cdef int **gj
    cdef int has_flag
    for b in range(n_blocks):
        if <long long> blocks[b].nc * blocks[b].nr > TABLE_LIMIT:
            return 0
    tables = <int **> calloc(n_blocks, sizeof(int *))
    own_value = <int *> malloc(n_blocks * sizeof(int))
    own_i = <int **> calloc(n_blocks, sizeof(int *))
    own_j = <int **> calloc(n_blocks, sizeof(int *))
    for b in range(n_blocks):
        tables[b] = <int *> malloc(blocks[b].nc * blocks[b].nr * sizeof(int))
        r = min(blocks[b].nc, blocks[b].nr)
        own_i[b] = <int *> malloc(r * sizeof(int))
        own_j[b] = <int *> malloc(r * sizeof(int))
        n_pairs += r
    crossing_weights(n_ctx, ctx_i, ctx_j, n_ref, n_blocks, blocks, tables)
    for b in range(n_blocks):
        own_value[b] = block_optimum(&blocks[b], tables[b], own_i[b], own_j[b])
    flags = <int *> calloc(n_blocks + 1, sizeof(int))
    if n_blocks > 1:
        pi = <int *> malloc(n_pairs * sizeof(int))
        pj = <int *> malloc(n_pairs * sizeof(int))
        pb = <int *> malloc(n_pairs * sizeof(int))
        k = 0
        for b in range(n_blocks):
            r = min(blocks[b].nc, blocks[b].nr)
            for t in range(r):
                pi[k] = own_i[b][t]
                pj[k] = own_j[b][t]
                pb[k] = b
                k += 1
        crossing_block_flags(n_pairs, pi, pj, pb, flags)
        free(pi)
        free(pj)
        free(pb)
        for b in range(n_blocks):
            any_flag |= flags[b]
    if not any_flag:
        for b in range(n_blocks):
            r = min(blocks[b].nc, blocks[b].nr)
            for t in range(r):
                vec_push(out_i, own_i[b][t])
                vec_push(out_j, own_j[b][t])
    else:
        # groups of blocks that may interact (_box_groups), by their smallest member
        parent = <int *> malloc(n_blocks * sizeof(int))
        group_by_boxes(n_blocks, blocks, parent)
        members = <int *> malloc(n_blocks * sizeof(int))
        gblocks = <Block *> malloc(n_blocks * sizeof(Block))
        gtables = <int **> malloc(n_blocks * sizeof(int *))
        gvalue = <int *> malloc(n_blocks * sizeof(int))
        gi = <int **> malloc(n_blocks * sizeof(int *))
        gj = <int **> malloc(n_blocks * sizeof(int *))
        # groups in the order of their smallest member
        for b in range(n_blocks):
            if not first_of_group(parent, b):
                continue
            g = uf_find(parent, b)
            n_members = 0
            has_flag = 0
            for c in range(b, n_blocks):
                if uf_find(parent, c) == g:
                    members[n_members] = c
                    n_members += 1
                    has_flag |= flags[c]
            if not has_flag:
                for t in range(n_members):
                    c = members[t]
                    r = min(blocks[c].nc, blocks[c].nr)
                    for k in range(r):
                        vec_push(out_i, own_i[c][k])
                        vec_push(out_j, own_j[c][k])
                continue
            product = 1
            depth = 0
            for t in range(n_members):
                c = members[t]
                gblocks[t] = blocks[c]
                gtables[t] = tables[c]
                gvalue[t] = own_value[c]
                gi[t] = own_i[c]
                gj[t] = own_j[c]
                depth += blocks[c].nc
                if product <= 1000000000:
                    product *= n_choose_k(max(blocks[c].nc, blocks[c].nr), min(blocks[c].nc, blocks[c].nr))
            if product <= ENUMERATE_LIMIT:
                try_every_choice(n_members, gblocks, gtables, out_i, out_j)
            elif depth <= DEPTH_LIMIT:
                if not choose_block_subsets(n_members, gblocks, gtables, gvalue, gi, gj, budget,
                                            out_i, out_j):
                    result = 0
                    break
            else:
                result = 0
                break
        free(parent)
        free(members)
        free(gblocks)
        free(gtables)
        free(gvalue)
        free(gi)
        free(gj)
    for b in range(n_blocks):
        free(tables[b])
        free(own_i[b])
        free(own_j[b])
    free(tables)
    free(own_value)
    free(own_i)
    free(own_j)
    free(flags)
    return result


# --------------------------------------------------------------------------- stages

cdef struct Job:
    int nc
    int nr
    const int *cw      # candidate word ids
    const int *rw      # reference word ids
    int *fixed_c       # candidate position -> reference position or -1
    int *fixed_r       # reference position -> candidate position or -1
    int *stage_of      # candidate position -> stage number
    int n_fixed
    int *free_c        # free positions, ascending
    int n_free_c
    int *free_r
    int n_free_r
    # scratch for grouping positions by key (linked lists, sized by the largest key + 1)
    int *head_r
    int *tail_r
    int *count_r
    int *head_c
    int *tail_c
    int *count_c
    int *next_r
    int *next_c


cdef int context_arrays(Job *job, IntVec *new_i, IntVec *new_j, int **ci, int **cj) except -1:
    """The fixed mappings plus ``new``, sorted by candidate position, as two arrays."""
    cdef int n = job.n_fixed + new_i.size, t, k = 0
    cdef int *mark = <int *> malloc((job.nc + 1) * sizeof(int))
    ci[0] = <int *> malloc(n * sizeof(int) + 1)
    cj[0] = <int *> malloc(n * sizeof(int) + 1)
    if mark == NULL or ci[0] == NULL or cj[0] == NULL:
        raise MemoryError()
    for t in range(job.nc):
        mark[t] = job.fixed_c[t]
    for t in range(new_i.size):
        mark[new_i.data[t]] = new_j.data[t]
    for t in range(job.nc):
        if mark[t] >= 0:
            ci[0][k] = t
            cj[0][k] = mark[t]
            k += 1
    free(mark)
    return k


cdef inline void append_to_list(int *head, int *tail, int *count, int *next, int key,
                                int position) noexcept:
    # append ``position`` to the linked list of ``key`` (positions come in ascending order)
    next[position] = -1
    if count[key] == 0:
        head[key] = position
    else:
        next[tail[key]] = position
    tail[key] = position
    count[key] += 1


cdef int single_key_stage(Job *job, int kind, const int *key_of, int *budget,
                          IntVec *new_i, IntVec *new_j) except -2:
    """_single_key_stage: 1 and the stage's mappings, or 0 (Python decides).

    Positions are grouped by key in linked lists (ascending), so each block's words
    come out in order and the blocks in the order of their first candidate word."""
    cdef int t, u, i, j, key, n_unbal = 0, result = 1, x
    cdef Block *unbal = NULL
    cdef int *ci
    cdef int *cj
    cdef int n_ctx
    # reference positions by key
    for t in range(job.n_free_r):
        j = job.free_r[t]
        key = job.rw[j] if kind == 0 else key_of[job.rw[j]]
        if key >= 0:
            append_to_list(job.head_r, job.tail_r, job.count_r, job.next_r, key, j)
    # candidate positions of the keys that reference words have
    for t in range(job.n_free_c):
        i = job.free_c[t]
        key = job.cw[i] if kind == 0 else key_of[job.cw[i]]
        if key >= 0 and job.count_r[key] > 0:
            append_to_list(job.head_c, job.tail_c, job.count_c, job.next_c, key, i)
    # blocks, in the order of their first candidate word
    for t in range(job.n_free_c):
        i = job.free_c[t]
        key = job.cw[i] if kind == 0 else key_of[job.cw[i]]
        if key < 0 or job.count_c[key] == 0 or job.head_c[key] != i:
            continue
        if job.count_c[key] == job.count_r[key]:
            u = i
            j = job.head_r[key]
            while u >= 0:
                vec_push(new_i, u)
                vec_push(new_j, j)
                u = job.next_c[u]
                j = job.next_r[j]
            continue
        if unbal == NULL:
            unbal = <Block *> malloc((job.n_free_c + 1) * sizeof(Block))
            if unbal == NULL:
                raise MemoryError()
        unbal[n_unbal].nc = job.count_c[key]
        unbal[n_unbal].nr = job.count_r[key]
        unbal[n_unbal].cands = <int *> malloc(job.count_c[key] * sizeof(int))
        unbal[n_unbal].refs = <int *> malloc(job.count_r[key] * sizeof(int))
        x = 0
        u = i
        while u >= 0:
            unbal[n_unbal].cands[x] = u
            x += 1
            u = job.next_c[u]
        x = 0
        u = job.head_r[key]
        while u >= 0:
            unbal[n_unbal].refs[x] = u
            x += 1
            u = job.next_r[u]
        n_unbal += 1
    # reset the scratch counters of the keys touched
    for t in range(job.n_free_r):
        j = job.free_r[t]
        key = job.rw[j] if kind == 0 else key_of[job.rw[j]]
        if key >= 0:
            job.count_r[key] = 0
            job.count_c[key] = 0
    if n_unbal:
        if n_unbal == 1 and job.n_fixed + new_i.size == 0:
            for t in range(min(unbal[0].nc, unbal[0].nr)):
                vec_push(new_i, unbal[0].cands[t])
                vec_push(new_j, unbal[0].refs[t])
        else:
            n_ctx = context_arrays(job, new_i, new_j, &ci, &cj)
            result = solve_complete_blocks(n_unbal, unbal, n_ctx, ci, cj, job.nr, budget, new_i, new_j)
            free(ci)
            free(cj)
        for t in range(n_unbal):
            free(unbal[t].cands)
            free(unbal[t].refs)
    free(unbal)
    return result


cdef inline bint rows_meet(const int *indptr, const int *indices, int u, int v) noexcept:
    # do the sorted key rows of words u and v share a key?
    cdef int a = indptr[u], a_end = indptr[u + 1], b = indptr[v], b_end = indptr[v + 1]
    while a < a_end and b < b_end:
        if indices[a] == indices[b]:
            return 1
        if indices[a] < indices[b]:
            a += 1
        else:
            b += 1
    return 0


cdef int max_matching(int n_edges, int *ei, int *ej, int nc, int nr) except -1:
    """The size of a maximum matching of the bipartite graph (Kuhn's augmenting paths)."""
    cdef int *match_r = <int *> malloc((nr + 1) * sizeof(int))
    cdef int *seen = <int *> malloc((nr + 1) * sizeof(int))
    cdef int *start = <int *> calloc(nc + 2, sizeof(int))
    cdef int *adj = <int *> malloc((n_edges + 1) * sizeof(int))
    cdef int *fill = <int *> calloc(nc + 1, sizeof(int))
    cdef int t, i, size = 0
    if match_r == NULL or seen == NULL or start == NULL or adj == NULL or fill == NULL:
        raise MemoryError()
    for t in range(n_edges):
        start[ei[t] + 1] += 1
    for i in range(nc):
        start[i + 1] += start[i]
    for t in range(n_edges):
        adj[start[ei[t]] + fill[ei[t]]] = ej[t]
        fill[ei[t]] += 1
    for t in range(nr):
        match_r[t] = -1
        seen[t] = -1
    for i in range(nc):
        if augment(i, i, start, adj, match_r, seen):
            size += 1
    free(match_r)
    free(seen)
    free(start)
    free(adj)
    free(fill)
    return size


cdef bint augment(int i, int stamp, int *start, int *adj, int *match_r, int *seen) noexcept:
    cdef int t, j
    for t in range(start[i], start[i + 1]):
        j = adj[t]
        if seen[j] == stamp:
            continue
        seen[j] = stamp
        if match_r[j] < 0 or augment(match_r[j], stamp, start, adj, match_r, seen):
            match_r[j] = i
            return 1
    return 0


cdef struct Walk:
    int n                 # candidate positions of the group
    int *positions
    int *edge_start       # edges of position t: refs[edge_start[t]:edge_start[t + 1]], sorted
    int *edge_ref
    int *weight           # per edge: crossings with the context
    int need
    int nodes
    int limit
    int best_cost
    int *chosen_i
    int *chosen_j
    int n_chosen
    int *best_i
    int *best_j
    int n_best
    char *used            # by reference position


cdef int walk(Walk *w, int t, int cost) noexcept:
    """_enumerate_group.walk: 1 to go on, 0 when the node limit is reached."""
    cdef int e, j, step, k
    if w.n_chosen + w.n - t < w.need:
        return 1
    if t == w.n:
        if w.best_cost < 0 or cost < w.best_cost:
            w.best_cost = cost
            w.n_best = w.n_chosen
            for k in range(w.n_chosen):
                w.best_i[k] = w.chosen_i[k]
                w.best_j[k] = w.chosen_j[k]
        return 1
    for e in range(w.edge_start[t], w.edge_start[t + 1]):
        j = w.edge_ref[e]
        if w.used[j]:
            continue
        w.nodes += 1
        if w.nodes > w.limit:
            return 0
        step = w.weight[e]
        for k in range(w.n_chosen):
            if w.chosen_j[k] > j:
                step += 1
        if w.best_cost >= 0 and cost + step >= w.best_cost:
            continue
        w.used[j] = 1
        w.chosen_i[w.n_chosen] = w.positions[t]
        w.chosen_j[w.n_chosen] = j
        w.n_chosen += 1
        k = walk(w, t + 1, cost + step)
        w.n_chosen -= 1
        w.used[j] = 0
        if not k:
            return 0
    w.nodes += 1
    if w.nodes > w.limit:
        return 0
    return walk(w, t + 1, cost)


cdef int enumerate_group(Job *job, int n_members, Block *members, int n_edges, int *ei, int *ej,
                         int n_ctx, int *ctx_i, int *ctx_j, int *budget,
                         IntVec *new_i, IntVec *new_j) except -2:
    """_enumerate_group: 1 and the group's mappings, or 0 (too many nodes: Python decides)."""
    cdef Walk w
    cdef int b, t, e, k, n_pos = 0, n_ref = 0, n_group_edges = 0, result, i, j
    cdef int *gi
    cdef int *gj
    cdef int *local_r
    memset(&w, 0, sizeof(Walk))
    for b in range(n_members):
        n_pos += members[b].nc
    w.n = n_pos
    w.positions = <int *> malloc((n_pos + 1) * sizeof(int))
    k = 0
    for b in range(n_members):
        for t in range(members[b].nc):
            w.positions[k] = members[b].cands[t]
            k += 1
    qsort(w.positions, n_pos, sizeof(int), cmp_int)
    # the group's edges, by position (edges of each candidate are in reference order)
    w.edge_start = <int *> calloc(n_pos + 2, sizeof(int))
    w.edge_ref = <int *> malloc((n_edges + 1) * sizeof(int))
    w.weight = <int *> malloc((n_edges + 1) * sizeof(int))
    gi = <int *> malloc((n_edges + 1) * sizeof(int))
    gj = <int *> malloc((n_edges + 1) * sizeof(int))
    local_r = <int *> malloc((job.nr + 1) * sizeof(int))
    for t in range(n_pos):
        for e in range(n_edges):
            if ei[e] == w.positions[t]:
                w.edge_ref[n_group_edges] = ej[e]
                gi[n_group_edges] = t
                n_group_edges += 1
        w.edge_start[t + 1] = n_group_edges
    # crossings of every edge with the context (one row per edge, through the weights code)
    for e in range(n_group_edges):
        i = w.positions[gi[e]]
        j = w.edge_ref[e]
        k = 0
        for t in range(n_ctx):
            if (ctx_i[t] < i) != (ctx_j[t] < j):
                k += 1
        w.weight[e] = k
    # maximum matching size, on local reference numbers
    n_ref = 0
    for e in range(n_group_edges):
        local_r[w.edge_ref[e]] = -1
    for e in range(n_group_edges):
        if local_r[w.edge_ref[e]] < 0:
            local_r[w.edge_ref[e]] = n_ref
            n_ref += 1
    for e in range(n_group_edges):
        gj[e] = local_r[w.edge_ref[e]]
    w.need = max_matching(n_group_edges, gi, gj, n_pos, n_ref)
    w.limit = ENUMERATE_NODES if ENUMERATE_NODES < budget[0] else budget[0]
    w.best_cost = -1
    w.chosen_i = <int *> malloc((n_pos + 1) * sizeof(int))
    w.chosen_j = <int *> malloc((n_pos + 1) * sizeof(int))
    w.best_i = <int *> malloc((n_pos + 1) * sizeof(int))
    w.best_j = <int *> malloc((n_pos + 1) * sizeof(int))
    w.used = <char *> calloc(job.nr + 1, 1)
    result = walk(&w, 0, 0)
    if result and w.best_cost >= 0:
        budget[1] += w.nodes
        budget[0] -= w.nodes
        for t in range(w.n_best):
            vec_push(new_i, w.best_i[t])
            vec_push(new_j, w.best_j[t])
    else:
        result = 0
    free(w.positions)
    free(w.edge_start)
    free(w.edge_ref)
    free(w.weight)
    free(gi)
    free(gj)
    free(local_r)
    free(w.chosen_i)
    free(w.chosen_j)
    free(w.best_i)
    free(w.best_j)
    free(w.used)
    return result


cdef int general_stage(Job *job, Block *comps, int *complete_of, int n_comp, int n_edges,
                       int *ei, int *ej, int *budget, IntVec *new_i, IntVec *new_j) except -2:
    """_align_stage for a key-set stage: forced components, then _solve_group per group."""
    cdef int u, t, b, c, g, n_open = 0, n_members, result = 1, all_complete, depth, table_ok
    cdef int n_ctx
    cdef int *ci
    cdef int *cj
    cdef int *open_comps = <int *> malloc((n_comp + 1) * sizeof(int))
    cdef int *parent
    cdef Block *members
    cdef Block *opened
    for u in range(n_comp):
        if complete_of[u] and comps[u].nc == comps[u].nr:
            for t in range(comps[u].nc):
                vec_push(new_i, comps[u].cands[t])
                vec_push(new_j, comps[u].refs[t])
        else:
            open_comps[n_open] = u
            n_open += 1
    if n_open == 0:
        free(open_comps)
        return 1
    # the context: earlier stages and this stage's forced mappings (fixed from here on)
    n_ctx = context_arrays(job, new_i, new_j, &ci, &cj)
    opened = <Block *> malloc((n_open + 1) * sizeof(Block))
    for b in range(n_open):
        opened[b] = comps[open_comps[b]]
    parent = <int *> malloc((n_open + 1) * sizeof(int))
    group_by_boxes(n_open, opened, parent)
    free(opened)
    members = <Block *> malloc((n_open + 1) * sizeof(Block))
    for b in range(n_open):
        if not first_of_group(parent, b):
            continue
        g = uf_find(parent, b)
        n_members = 0
        all_complete = 1
        depth = 0
        table_ok = 1
        for c in range(b, n_open):
            if uf_find(parent, c) == g:
                u = open_comps[c]
                members[n_members] = comps[u]
                n_members += 1
                all_complete &= complete_of[u]
                depth += comps[u].nc
                if <long long> comps[u].nc * comps[u].nr > TABLE_LIMIT:
                    table_ok = 0
        if n_ctx == 0 and n_members == 1 and all_complete:
            for t in range(min(members[0].nc, members[0].nr)):
                vec_push(new_i, members[0].cands[t])
                vec_push(new_j, members[0].refs[t])
        elif all_complete and depth <= DEPTH_LIMIT and table_ok:
            if not solve_complete_blocks(n_members, members, n_ctx, ci, cj, job.nr, budget, new_i, new_j):
                result = 0
                break
        elif depth <= SMALL_GROUP:
            if not enumerate_group(job, n_members, members, n_edges, ei, ej, n_ctx, ci, cj, budget,
                                   new_i, new_j):
                result = 0
                break
        else:
            result = 0
            break
    free(open_comps)
    free(parent)
    free(members)
    free(ci)
    free(cj)
    return result


cdef int synonym_stage(Job *job, const int *indptr, const int *indices, int *budget,
                       IntVec *new_i, IntVec *new_j) except -2:
    """_synonym_stage: 1 and the stage's mappings, or 0 (a component is not complete:
    Python's general path decides)."""
    cdef int t, u, i, j, n_rk = 0, result = 1, n_comp = 0, n_unbal = 0, n_edges = 0
    cdef int *rpos
    cdef int *deg
    cdef int *parent
    cdef int *in_graph
    cdef int *comp_root
    cdef int *ei
    cdef int *ej
    cdef Block *comps
    cdef Block *unbal
    cdef int *ci
    cdef int *cj
    cdef int n_ctx, root, x, complete, general
    cdef int *complete_of
    # free reference words that have keys
    for t in range(job.n_free_r):
        j = job.free_r[t]
        if indptr[job.rw[j] + 1] > indptr[job.rw[j]]:
            n_rk += 1
    if n_rk == 0:
        return 1
    rpos = <int *> malloc(n_rk * sizeof(int))
    n_rk = 0
    for t in range(job.n_free_r):
        j = job.free_r[t]
        if indptr[job.rw[j] + 1] > indptr[job.rw[j]]:
            rpos[n_rk] = j
            n_rk += 1
    ei = <int *> malloc((job.n_free_c * n_rk + 1) * sizeof(int))
    ej = <int *> malloc((job.n_free_c * n_rk + 1) * sizeof(int))
    deg = <int *> calloc(job.nc + 1, sizeof(int))
    if rpos == NULL or ei == NULL or ej == NULL or deg == NULL:
        raise MemoryError()
    for t in range(job.n_free_c):
        i = job.free_c[t]
        if indptr[job.cw[i] + 1] == indptr[job.cw[i]]:
            continue
        for u in range(n_rk):
            if rows_meet(indptr, indices, job.cw[i], job.rw[rpos[u]]):
                ei[n_edges] = i
                ej[n_edges] = rpos[u]
                n_edges += 1
                deg[i] += 1
    if n_edges == 0:
        free(rpos)
        free(ei)
        free(ej)
        free(deg)
        return 1
    parent = <int *> malloc((job.nc + job.nr) * sizeof(int))
    in_graph = <int *> calloc(job.nc + job.nr, sizeof(int))
    for t in range(job.nc + job.nr):
        parent[t] = t
    for t in range(n_edges):
        in_graph[ei[t]] = 1
        in_graph[job.nc + ej[t]] = 1
        u = uf_find(parent, ei[t])
        x = uf_find(parent, job.nc + ej[t])
        if u != x:
            parent[u] = x
    # components in the order of their first candidate word
    comps = <Block *> malloc((n_edges + 1) * sizeof(Block))
    comp_root = <int *> malloc((n_edges + 1) * sizeof(int))
    for t in range(job.n_free_c):
        i = job.free_c[t]
        if not in_graph[i]:
            continue
        root = uf_find(parent, i)
        for u in range(n_comp):
            if comp_root[u] == root:
                break
        else:
            comp_root[n_comp] = root
            comps[n_comp].nc = 0
            comps[n_comp].nr = 0
            comps[n_comp].cands = <int *> malloc(job.nc * sizeof(int))
            comps[n_comp].refs = <int *> malloc(job.nr * sizeof(int))
            u = n_comp
            n_comp += 1
        comps[u].cands[comps[u].nc] = i
        comps[u].nc += 1
    for t in range(n_rk):
        j = rpos[t]
        if not in_graph[job.nc + j]:
            continue
        root = uf_find(parent, job.nc + j)
        for u in range(n_comp):
            if comp_root[u] == root:
                comps[u].refs[comps[u].nr] = j
                comps[u].nr += 1
                break
    unbal = <Block *> malloc((n_comp + 1) * sizeof(Block))
    complete_of = <int *> malloc((n_comp + 1) * sizeof(int))
    general = 0
    for u in range(n_comp):
        complete = 1
        for t in range(comps[u].nc):
            if deg[comps[u].cands[t]] != comps[u].nr:
                complete = 0
                break
        complete_of[u] = complete
        if not complete:
            general = 1
    if general:
        # _align_stage: forced components, then each group of the others (_solve_group)
        result = general_stage(job, comps, complete_of, n_comp, n_edges, ei, ej, budget,
                               new_i, new_j)
    else:
        for u in range(n_comp):
            if comps[u].nc == comps[u].nr:
                for t in range(comps[u].nc):
                    vec_push(new_i, comps[u].cands[t])
                    vec_push(new_j, comps[u].refs[t])
            else:
                unbal[n_unbal] = comps[u]
                n_unbal += 1
        if n_unbal:
            # sorted(unbalanced): already in the order of their first candidate word
            n_ctx = context_arrays(job, new_i, new_j, &ci, &cj)
            result = solve_complete_blocks(n_unbal, unbal, n_ctx, ci, cj, job.nr, budget, new_i, new_j)
            free(ci)
            free(cj)
    free(complete_of)
    for u in range(n_comp):
        free(comps[u].cands)
        free(comps[u].refs)
    free(comps)
    free(comp_root)
    free(unbal)
    free(parent)
    free(in_graph)
    free(deg)
    free(rpos)
    free(ei)
    free(ej)
    return result


cdef struct Output:
    IntVec pair_i
    IntVec pair_j
    IntVec stage
    IntVec pair_offsets
    IntVec status      # 1: aligned here, 0: Python must align the job
    IntVec crossings
    IntVec chunks
    IntVec nodes


cdef int align_job(Job *job, int n_stages, int *kinds, const int **key_of,
                   const int **indptr, const int **indices, int node_budget,
                   Output *out) except -1:
    """_align_core for one job, appended to ``out`` (status 0: Python decides)."""
    cdef int s, s2, t, result = 1, n_pairs, crossings, chunks, pi_prev, pj_prev, start
    cdef int budget[2]
    cdef IntVec new_i, new_j
    budget[0] = node_budget
    budget[1] = 0
    for t in range(job.nc):
        job.fixed_c[t] = -1
        job.free_c[t] = t
    for t in range(job.nr):
        job.fixed_r[t] = -1
        job.free_r[t] = t
    job.n_free_c = job.nc
    job.n_free_r = job.nr
    job.n_fixed = 0
    new_i.data = NULL
    new_i.size = new_i.cap = 0
    new_j.data = NULL
    new_j.size = new_j.cap = 0
    for s in range(n_stages):
        if job.n_fixed == min(job.nc, job.nr):
            break
        new_i.size = 0
        new_j.size = 0
        if kinds[s] == 2:
            result = synonym_stage(job, indptr[s], indices[s], budget, &new_i, &new_j)
        else:
            result = single_key_stage(job, kinds[s], key_of[s], budget, &new_i, &new_j)
        if not result:
            break
        if new_i.size:
            for t in range(new_i.size):
                job.fixed_c[new_i.data[t]] = new_j.data[t]
                job.fixed_r[new_j.data[t]] = new_i.data[t]
                job.stage_of[new_i.data[t]] = s
            job.n_fixed += new_i.size
            t = 0
            for s2 in range(job.n_free_c):
                if job.fixed_c[job.free_c[s2]] < 0:
                    job.free_c[t] = job.free_c[s2]
                    t += 1
            job.n_free_c = t
            t = 0
            for s2 in range(job.n_free_r):
                if job.fixed_r[job.free_r[s2]] < 0:
                    job.free_r[t] = job.free_r[s2]
                    t += 1
            job.n_free_r = t
    vec_free(&new_i)
    vec_free(&new_j)
    vec_push(&out.status, result)
    if not result:
        vec_push(&out.pair_offsets, out.pair_i.size)
        vec_push(&out.crossings, 0)
        vec_push(&out.chunks, 0)
        vec_push(&out.nodes, 0)
        return 0
    start = out.pair_i.size
    pi_prev = -2
    pj_prev = -2
    chunks = 0
    for t in range(job.nc):
        if job.fixed_c[t] >= 0:
            vec_push(&out.pair_i, t)
            vec_push(&out.pair_j, job.fixed_c[t])
            vec_push(&out.stage, job.stage_of[t])
            if t != pi_prev + 1 or job.fixed_c[t] != pj_prev + 1:
                chunks += 1
            pi_prev = t
            pj_prev = job.fixed_c[t]
    n_pairs = out.pair_i.size - start
    crossings = count_crossings_sorted(out.pair_i.data + start, out.pair_j.data + start, n_pairs)
    vec_push(&out.pair_offsets, out.pair_i.size)
    vec_push(&out.crossings, crossings)
    vec_push(&out.chunks, chunks)
    vec_push(&out.nodes, budget[1])
    return 0


cdef object to_array(IntVec *v):
    cdef carray.array result = carray.clone(_INT_ARRAY, v.size, zero=False)
    if v.size:
        memcpy(result.data.as_ints, v.data, v.size * sizeof(int))
    return result


cdef int number_tokens(segments, dict vocab, list words, IntVec *ids, IntVec *offsets) except -1:
    """Every token's word id (new words numbered in order of appearance), and where each
    segment's ids start and end."""
    cdef object found
    vec_push(offsets, 0)
    for segment in segments:
        for token in segment:
            found = vocab.get(token)
            if found is None:
                found = len(words)
                vocab[token] = found
                words.append(token)
            vec_push(ids, <int> found)
        vec_push(offsets, ids.size)
    return 0


cdef class Words:
    """The words of many (candidate, reference) pairs as integer ids.

    ``Words(candidates, references)`` numbers every distinct token in order of first
    appearance (``words``: the tokens, in id order) and keeps each pair's ids."""

    cdef public list words
    cdef int *cand_words
    cdef int *ref_words
    cdef int *cand_offsets
    cdef int *ref_offsets
    cdef int n_jobs

    def __cinit__(self, candidates, references):
        cdef dict vocab = {}
        cdef list words = []
        cdef IntVec cw, rw, co, ro
        memset(&cw, 0, sizeof(IntVec))
        memset(&rw, 0, sizeof(IntVec))
        memset(&co, 0, sizeof(IntVec))
        memset(&ro, 0, sizeof(IntVec))
        try:
            number_tokens(candidates, vocab, words, &cw, &co)
            number_tokens(references, vocab, words, &rw, &ro)
        except BaseException:
            vec_free(&cw)
            vec_free(&rw)
            vec_free(&co)
            vec_free(&ro)
            raise
        if co.size != ro.size:
            vec_free(&cw)
            vec_free(&rw)
            vec_free(&co)
            vec_free(&ro)
            raise ValueError("candidates and references: not as many of each")
        self.words = words
        self.cand_words = cw.data
        self.ref_words = rw.data
        self.cand_offsets = co.data
        self.ref_offsets = ro.data
        self.n_jobs = co.size - 1

    def __dealloc__(self):
        free(self.cand_words)
        free(self.ref_words)
        free(self.cand_offsets)
        free(self.ref_offsets)

    def align(self, list stages, int node_budget, tuple limits):
        """Align every pair. ``stages`` lists ``(kind, keys)``: kind 0 the exact stage
        (``keys`` unused), 1 one key per word (``keys[w]``: any hashable, the stem of
        word w), 2 key sets (``keys[w]``: the sorted synset ids of word w). ``limits``
        are mtlearn.meteor_alignment's (enumerate, choices, choice nodes, depth, table,
        grouping, small group, enumerate nodes). Returns int arrays: ``status`` (1:
        aligned here, 0: Python must align that pair), ``pair_offsets`` (pair k's
        mappings are ``pair_offsets[k]:pair_offsets[k + 1]``), ``pair_i``, ``pair_j``,
        ``stage`` (the stage number of each mapping), ``crossings``, ``chunks``,
        ``nodes``."""
        global ENUMERATE_LIMIT, CHOICE_LIMIT, CHOICE_NODES, DEPTH_LIMIT, TABLE_LIMIT
        global GROUPING_LIMIT, SMALL_GROUP, ENUMERATE_NODES
        cdef int n_stages = len(stages)
        cdef int n_words = len(self.words)
        cdef int k, s, w, nc, nr, max_c = 0, max_r = 0, max_keys = n_words + 1
        cdef int *kinds = <int *> calloc(n_stages + 1, sizeof(int))
        cdef int **key_of = <int **> calloc(n_stages + 1, sizeof(int *))
        cdef int **indptr = <int **> calloc(n_stages + 1, sizeof(int *))
        cdef int **indices = <int **> calloc(n_stages + 1, sizeof(int *))
        cdef dict ids
        cdef IntVec rows
        cdef Job job
        cdef Output out
        (ENUMERATE_LIMIT, CHOICE_LIMIT, CHOICE_NODES, DEPTH_LIMIT, TABLE_LIMIT, GROUPING_LIMIT,
         SMALL_GROUP, ENUMERATE_NODES) = limits
        memset(&out, 0, sizeof(Output))
        memset(&job, 0, sizeof(Job))
        try:
            if kinds == NULL or key_of == NULL or indptr == NULL or indices == NULL:
                raise MemoryError()
            for s in range(n_stages):
                kind, keys = stages[s]
                kinds[s] = kind
                if kind == 1:  # a key's id: the first word with that key (ids < n_words)
                    key_of[s] = <int *> malloc((n_words + 1) * sizeof(int))
                    if key_of[s] == NULL:
                        raise MemoryError()
                    ids = {}
                    for w in range(n_words):
                        key_of[s][w] = <int> ids.setdefault(keys[w], w)
                elif kind == 2:
                    indptr[s] = <int *> malloc((n_words + 1) * sizeof(int))
                    if indptr[s] == NULL:
                        raise MemoryError()
                    memset(&rows, 0, sizeof(IntVec))
                    indptr[s][0] = 0
                    for w in range(n_words):
                        for key in keys[w]:
                            vec_push(&rows, <int> key)
                        indptr[s][w + 1] = rows.size
                    indices[s] = rows.data
            for k in range(self.n_jobs):
                nc = self.cand_offsets[k + 1] - self.cand_offsets[k]
                nr = self.ref_offsets[k + 1] - self.ref_offsets[k]
                if nc > max_c:
                    max_c = nc
                if nr > max_r:
                    max_r = nr
            job.fixed_c = <int *> malloc((max_c + 1) * sizeof(int))
            job.free_c = <int *> malloc((max_c + 1) * sizeof(int))
            job.stage_of = <int *> malloc((max_c + 1) * sizeof(int))
            job.next_c = <int *> malloc((max_c + 1) * sizeof(int))
            job.fixed_r = <int *> malloc((max_r + 1) * sizeof(int))
            job.free_r = <int *> malloc((max_r + 1) * sizeof(int))
            job.next_r = <int *> malloc((max_r + 1) * sizeof(int))
            job.head_r = <int *> malloc(max_keys * sizeof(int))
            job.tail_r = <int *> malloc(max_keys * sizeof(int))
            job.count_r = <int *> calloc(max_keys, sizeof(int))
            job.head_c = <int *> malloc(max_keys * sizeof(int))
            job.tail_c = <int *> malloc(max_keys * sizeof(int))
            job.count_c = <int *> calloc(max_keys, sizeof(int))
            if (job.fixed_c == NULL or job.free_c == NULL or job.stage_of == NULL
                    or job.next_c == NULL or job.fixed_r == NULL or job.free_r == NULL
                    or job.next_r == NULL or job.head_r == NULL or job.tail_r == NULL
                    or job.count_r == NULL or job.head_c == NULL or job.tail_c == NULL
                    or job.count_c == NULL):
                raise MemoryError()
            vec_push(&out.pair_offsets, 0)
            for k in range(self.n_jobs):
                job.nc = self.cand_offsets[k + 1] - self.cand_offsets[k]
                job.nr = self.ref_offsets[k + 1] - self.ref_offsets[k]
                job.cw = self.cand_words + self.cand_offsets[k]
                job.rw = self.ref_words + self.ref_offsets[k]
                align_job(&job, n_stages, kinds, <const int **> key_of, <const int **> indptr,
                          <const int **> indices, node_budget, &out)
            return (to_array(&out.status), to_array(&out.pair_offsets), to_array(&out.pair_i),
                    to_array(&out.pair_j), to_array(&out.stage), to_array(&out.crossings),
                    to_array(&out.chunks), to_array(&out.nodes))
        finally:
            free(job.fixed_c)
            free(job.free_c)
            free(job.stage_of)
            free(job.next_c)
            free(job.fixed_r)
            free(job.free_r)
            free(job.next_r)
            free(job.head_r)
            free(job.tail_r)
            free(job.count_r)
            free(job.head_c)
            free(job.tail_c)
            free(job.count_c)
            for s in range(n_stages):
                if key_of != NULL:
                    free(key_of[s])
                if indptr != NULL:
                    free(indptr[s])
                if indices != NULL:
                    free(indices[s])
            free(kinds)
            free(key_of)
            free(indptr)
            free(indices)
            vec_free(&out.pair_i)
            vec_free(&out.pair_j)
            vec_free(&out.stage)
            vec_free(&out.pair_offsets)
            vec_free(&out.status)
            vec_free(&out.crossings)
            vec_free(&out.chunks)
            vec_free(&out.nodes)
