// The union-find of the CPU graph algorithms (ECL-CC, Afforest, the edge-list union-find), over a
// parent array with one invariant: every store puts a smaller id at a larger index. So parent[x]
// <= x at all times, parent[x] == x exactly for the roots, every tree's root is its smallest
// vertex, and once every edge is linked the roots are the canonical labels (smallest id of each
// component). The invariant also makes the races of the parallel versions benign (Jaiganesh &
// Burtscher 2018, section 3): a root only changes by a CAS that succeeds while it is still a root,
// and any other store replaces a parent by a smaller vertex of the same tree, so a reader that
// sees the old or the new value still reaches the root.
#pragma once

#include <cstdint>

namespace ccl4j::cpu {

// Parent-array accesses of the serial versions: plain loads and stores.
struct Plain {
    static int32_t load(const int32_t* p) { return *p; }
    static void store(int32_t* p, int32_t value) { *p = value; }

    // Hooks the larger of two distinct roots onto the smaller, which it returns.
    static int32_t hook(int32_t* parent, int32_t v_root, int32_t u_root) {
        if (v_root < u_root) {
            parent[u_root] = v_root;
            return v_root;
        }
        parent[v_root] = u_root;
        return u_root;
    }
};

// Parent-array accesses of the parallel versions. Relaxed order suffices: the parent array
// publishes nothing but itself, and the ends of the parallel regions order the phases.
struct Relaxed {
    static int32_t load(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static void store(int32_t* p, int32_t value) { __atomic_store_n(p, value, __ATOMIC_RELAXED); }

    // ECL-CC's Fig. 6: the larger root is hooked onto the smaller by a CAS that only succeeds
    // while it is still a root; a failed CAS yields its new parent, from which the loop climbs
    // on. Returns the vertex both ends now lead to.
    static int32_t hook(int32_t* parent, int32_t v_root, int32_t u_root) {
        while (v_root != u_root) {
            if (v_root < u_root) {
                int32_t seen = u_root;
                if (compare_exchange(&parent[u_root], seen, v_root)) return v_root;
                u_root = seen;
            } else {
                int32_t seen = v_root;
                if (compare_exchange(&parent[v_root], seen, u_root)) return u_root;
                v_root = seen;
            }
        }
        return v_root;
    }

private:
    // On failure, expected receives the current value.
    static bool compare_exchange(int32_t* p, int32_t& expected, int32_t desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
};

// Intermediate pointer jumping (ECL-CC's Fig. 5): one pass to the root in which every visited
// vertex is made to skip its parent, halving the path.
template <class Access>
int32_t find_root(int32_t v, int32_t* parent) {
    int32_t par = Access::load(&parent[v]);
    if (par != v) {
        int32_t prev = v;
        int32_t next;
        while (par > (next = Access::load(&parent[par]))) {
            Access::store(&parent[prev], next);
            prev = par;
            par = next;
        }
    }
    return par;
}

// Puts u and v in one tree.
template <class Access>
void link(int32_t u, int32_t v, int32_t* parent) {
    const int32_t u_root = find_root<Access>(u, parent);
    const int32_t v_root = find_root<Access>(v, parent);
    if (u_root != v_root) Access::hook(parent, v_root, u_root);
}

// Points every vertex of a complete forest at its root, in increasing order: parent[v] < v is
// already final when v is reached, so one jump reaches the root however long the chains are (an
// ordered path is one chain of n parents). The loads are independent, so the core overlaps their
// misses; on 2 cores this measured as fast as parallel pointer jumping on grids and up to 6x
// faster on paths and sparse random graphs, whose chains cost several misses per vertex to walk.
inline void point_at_roots(int32_t n, int32_t* parent) {
    for (int32_t v = 0; v < n; ++v) parent[v] = parent[parent[v]];
}

}  // namespace ccl4j::cpu
