// Contacts on the CPU: the rows of the mesh in chunks handed out to the threads, each thread
// collecting the keys of its cells' contacts and folding them, sorted, into (key, count) runs
// whenever they grow large (a densely labelled volume has several contacts a cell), then the
// threads' runs merged into one sorted list, from which the rows are read.
#include "cpu/contacts.hpp"

#include <algorithm>
#include <vector>

#include "common/label_arrays.hpp"
#include "common/parallel.hpp"

namespace ccl4j::cpu {

namespace {

// Distinct keys ascending, each with how often it occurred.
struct Runs {
    std::vector<uint64_t> keys;
    std::vector<int64_t> counts;
};

// a and b merged: the keys of both, ascending, counts of equal keys summed.
Runs merge(const Runs& a, const Runs& b) {
    Runs out;
    out.keys.reserve(a.keys.size() + b.keys.size());
    out.counts.reserve(a.keys.size() + b.keys.size());
    size_t i = 0, j = 0;
    while (i < a.keys.size() || j < b.keys.size()) {
        const bool from_a = j == b.keys.size() || (i < a.keys.size() && a.keys[i] <= b.keys[j]);
        const uint64_t k = from_a ? a.keys[i] : b.keys[j];
        const int64_t c = from_a ? a.counts[i++] : b.counts[j++];
        if (!out.keys.empty() && out.keys.back() == k) {
            out.counts.back() += c;
        } else {
            out.keys.push_back(k);
            out.counts.push_back(c);
        }
    }
    return out;
}

// What one thread collects: raw keys not yet folded, its runs, and its smallest bad cell.
struct Share {
    std::vector<uint64_t> raw;
    Runs runs;
    int64_t bad = INT64_MAX;

    void fold() {
        if (raw.empty()) return;
        std::sort(raw.begin(), raw.end());
        Runs fresh;
        for (uint64_t k : raw) {
            if (!fresh.keys.empty() && fresh.keys.back() == k) {
                ++fresh.counts.back();
            } else {
                fresh.keys.push_back(k);
                fresh.counts.push_back(1);
            }
        }
        raw.clear();
        runs = merge(runs, fresh);
    }
};

constexpr size_t kFoldAt = size_t(1) << 20;  // raw keys a thread holds before it folds them (8 MB)

}  // namespace

contacts::Rows mesh_contacts(const int32_t* labels, const contacts::Shape& s, int threads) {
    const int64_t cells = int64_t(s.width) * s.height * s.depth;
    const int64_t rows = int64_t(s.height) * s.depth;
    // chunks of about 2^16 cells: enough work per hand-out, and enough chunks to share out
    const int64_t chunk = std::max<int64_t>(1, (int64_t(1) << 16) / s.width);
    std::vector<Share> shares(parallel::thread_count(threads));
    parallel::for_chunks(int64_t(0), rows, chunk, threads, [&](int part, int64_t first, int64_t last) {
        Share& share = shares[part];
        for (int64_t r = first; r < last; ++r) {
            const int32_t y = int32_t(r % s.height), z = int32_t(r / s.height);
            const int64_t base = r * s.width;
            for (int32_t x = 0; x < s.width; ++x) {
                const int32_t l = labels[base + x];
                if (l < -1 || l >= cells) {
                    share.bad = std::min(share.bad, base + x);
                    continue;
                }
                contacts::visit(labels, s, x, y, z, [&](uint64_t k) { share.raw.push_back(k); });
            }
            if (share.raw.size() >= kFoldAt) share.fold();
        }
    });
    int64_t bad = INT64_MAX;
    for (const Share& share : shares) bad = std::min(bad, share.bad);
    if (bad != INT64_MAX) fail_bad_label(bad, labels[bad], cells);
    parallel::for_each(0, int(shares.size()), threads, [&](int p) { shares[p].fold(); });
    Runs all;
    for (const Share& share : shares) all = merge(all, share.runs);
    return contacts::rows_of(all.keys.data(), all.counts.data(), all.keys.size());
}

}  // namespace ccl4j::cpu
