// The Cahn-Hilliard field on the GPU; see cahn_hilliard.hpp. Each Runge-Kutta stage is one launch
// (the paper's host loop of kernel calls, the only grid-wide barrier): stage 1 writes
// half = c + dt/2 f(c), stage 2 next = c + dt f(half). The arithmetic is common/cahn_hilliard.hpp's,
// as on the CPU, so both kernels and the CPU compute the same bits.
#include "cuda/cahn_hilliard.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "common/philox.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/mesh_device.cuh"

namespace ccl4j::cuda {

class DeviceField {
public:
    explicit DeviceField(const ch::Shape& shape) : shape(shape) {
        CCL4J_CUDA_CHECK(cudaEventCreate(&start));
        CCL4J_CUDA_CHECK(cudaEventCreate(&stop));
    }
    ~DeviceField() {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    DeviceField(const DeviceField&) = delete;
    DeviceField& operator=(const DeviceField&) = delete;

    const ch::Shape shape;
    DeviceBuffer c;      // the field
    DeviceBuffer half;   // the midpoint of a step
    DeviceBuffer next;   // the field after a step, swapped with c
    DeviceBuffer sums;   // domain counts: roots, foreground cells, largest size
    DeviceBuffer cells;  // the thresholded field (field_threshold), kept between calls
    cudaEvent_t start = nullptr, stop = nullptr;
};

void DeviceFieldDeleter::operator()(DeviceField* field) const { delete field; }

namespace {

using detail::thread_count;
using detail::thread_index;

constexpr int kBlock = 256;

int grid(const DeviceState& state, int64_t items) { return grid_size(state, kBlock, std::max<int64_t>(items, 1)); }

__global__ void initial_kernel(int32_t n, float c0, float noise, uint64_t seed, float* c) {
    for (int32_t i = thread_index(); i < n; i += thread_count()) {
        c[i] = ch::initial(c0, noise, draw(seed, kConcentrationNoise, 0, static_cast<uint32_t>(i)));
    }
}

__global__ void threshold_kernel(int32_t n, const float* __restrict__ c, float level, uint8_t* __restrict__ cells) {
    for (int32_t i = thread_index(); i < n; i += thread_count()) cells[i] = c[i] > level ? 1 : 0;
}

// The first cell that is not finite (a field that diverged), by an atomic minimum of its index.
__global__ void first_non_finite(int32_t n, const float* __restrict__ c, unsigned long long* first) {
    for (int32_t i = thread_index(); i < n; i += thread_count()) {
        if (!isfinite(c[i])) atomicMin(first, static_cast<unsigned long long>(i));
    }
}

// Kernel A: a thread per cell reads its 13 (25) cells from global memory, through the read-only
// cache, and evaluates mu at itself and its face neighbours; out = base + step * f(in).
__global__ void stage_global(ch::Shape s, ch::Coefficients k, const float* __restrict__ in,
                             const float* __restrict__ base, float* __restrict__ out, float step) {
    const int32_t n = static_cast<int32_t>(s.cells());
    for (int32_t i = thread_index(); i < n; i += thread_count()) {
        const int32_t x = i % s.width, y = i / s.width % s.height, z = i / s.width / s.height;
        auto c_at = [&](int32_t cx, int32_t cy, int32_t cz) { return __ldg(in + cx + s.width * (cy + s.height * cz)); };
        auto mu_at = [&](int32_t mx, int32_t my, int32_t mz) {
            return ch::potential(c_at(mx, my, mz), ch::neighbour_sum(c_at, s, mx, my, mz), k);
        };
        const float r = ch::rate(mu_at(x, y, z), ch::neighbour_sum(mu_at, s, x, y, z), k);
        out[i] = ch::advance(base[i], step, r);
    }
}

// The index within [0, n) of a tile coordinate g, which may lie up to a tile beyond the field.
__device__ __forceinline__ int32_t fold(int32_t g, int32_t n, bool periodic) {
    if (periodic) return ((g % n) + n) % n;
    return min(max(g, 0), n - 1);
}

// Kernel B: a block of BX x BY x BZ threads loads its tile of c with a two-cell halo into shared
// memory (cooperatively: no idle border threads), evaluates mu once per cell of the tile and a
// one-cell halo, then the rates of its cells. Tiles are walked grid-stride, so any extent fits.
// A halo position takes the value of the cell the boundary maps it to; with no-flux walls, mu and
// the rates read the clamped cell's value, so mu outside the wall equals mu at it, as on the CPU.
template <int BX, int BY, int BZ>
__global__ void __launch_bounds__(BX * BY * BZ) stage_shared(ch::Shape s, ch::Coefficients k,
                                                            const float* __restrict__ in,
                                                            const float* __restrict__ base, float* __restrict__ out,
                                                            float step, int32_t tiles_x, int32_t tiles_y,
                                                            int64_t tiles) {
    constexpr bool kThreeD = BZ > 1;
    constexpr int PX = BX + 4, PY = BY + 4, PZ = kThreeD ? BZ + 4 : 1;  // c: two-cell halo
    constexpr int MX = BX + 2, MY = BY + 2, MZ = kThreeD ? BZ + 2 : 1;  // mu: one-cell halo
    constexpr int kThreads = BX * BY * BZ;
    __shared__ float tile_c[PZ][PY][PX];
    __shared__ float tile_mu[MZ][MY][MX];
    const int t = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
    const bool p = s.periodic;
    // The tile position of global coordinate g along an axis of extent n whose c tile starts at
    // origin - halo: where the value the boundary gives g is held.
    auto at = [p](int32_t g, int32_t n, int32_t origin, int halo) {
        return (p ? g : min(max(g, 0), n - 1)) - origin + halo;
    };
    for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const int32_t x0 = static_cast<int32_t>(tile % tiles_x) * BX;
        const int32_t y0 = static_cast<int32_t>(tile / tiles_x % tiles_y) * BY;
        const int32_t z0 = static_cast<int32_t>(tile / (int64_t(tiles_x) * tiles_y)) * BZ;
        for (int q = t; q < PX * PY * PZ; q += kThreads) {
            const int qx = q % PX, qy = q / PX % PY, qz = q / (PX * PY);
            const int32_t gx = fold(x0 + qx - 2, s.width, p), gy = fold(y0 + qy - 2, s.height, p);
            const int32_t gz = kThreeD ? fold(z0 + qz - 2, s.depth, p) : 0;
            tile_c[qz][qy][qx] = __ldg(in + gx + s.width * (gy + s.height * gz));
        }
        __syncthreads();
        for (int q = t; q < MX * MY * MZ; q += kThreads) {
            const int qx = q % MX, qy = q / MX % MY, qz = q / (MX * MY);
            // the cell whose mu this is: the halo position itself (periodic) or the wall cell
            const int32_t gx = x0 + qx - 1, gy = y0 + qy - 1, gz = z0 + qz - 1;
            const int32_t cx = p ? gx : min(max(gx, 0), s.width - 1);
            const int32_t cy = p ? gy : min(max(gy, 0), s.height - 1);
            const int cxl = at(cx, s.width, x0, 2), cyl = at(cy, s.height, y0, 2);
            const int xm = at(cx - 1, s.width, x0, 2), xp = at(cx + 1, s.width, x0, 2);
            const int ym = at(cy - 1, s.height, y0, 2), yp = at(cy + 1, s.height, y0, 2);
            float mu;
            if constexpr (kThreeD) {
                const int32_t cz = p ? gz : min(max(gz, 0), s.depth - 1);
                const int czl = at(cz, s.depth, z0, 2);
                const int zm = at(cz - 1, s.depth, z0, 2), zp = at(cz + 1, s.depth, z0, 2);
                mu = ch::potential(tile_c[czl][cyl][cxl],
                                   ch::face_sum(tile_c[czl][cyl][xm], tile_c[czl][cyl][xp], tile_c[czl][ym][cxl],
                                                tile_c[czl][yp][cxl], tile_c[zm][cyl][cxl], tile_c[zp][cyl][cxl]),
                                   k);
            } else {
                mu = ch::potential(tile_c[0][cyl][cxl],
                                   ch::face_sum(tile_c[0][cyl][xm], tile_c[0][cyl][xp], tile_c[0][ym][cxl],
                                                tile_c[0][yp][cxl]),
                                   k);
            }
            tile_mu[qz][qy][qx] = mu;
        }
        __syncthreads();
        const int32_t x = x0 + threadIdx.x, y = y0 + threadIdx.y, z = z0 + threadIdx.z;
        if (x < s.width && y < s.height && z < s.depth) {
            const int lx = threadIdx.x + 1, ly = threadIdx.y + 1, lz = kThreeD ? threadIdx.z + 1 : 0;
            const int xm = at(x - 1, s.width, x0, 1), xp = at(x + 1, s.width, x0, 1);
            const int ym = at(y - 1, s.height, y0, 1), yp = at(y + 1, s.height, y0, 1);
            float sum;
            if constexpr (kThreeD) {
                const int zm = at(z - 1, s.depth, z0, 1), zp = at(z + 1, s.depth, z0, 1);
                sum = ch::face_sum(tile_mu[lz][ly][xm], tile_mu[lz][ly][xp], tile_mu[lz][ym][lx], tile_mu[lz][yp][lx],
                                   tile_mu[zm][ly][lx], tile_mu[zp][ly][lx]);
            } else {
                sum = ch::face_sum(tile_mu[0][ly][xm], tile_mu[0][ly][xp], tile_mu[0][ym][lx], tile_mu[0][yp][lx]);
            }
            const int64_t i = x + int64_t(s.width) * (y + int64_t(s.height) * z);
            out[i] = ch::advance(base[i], step, ch::rate(tile_mu[lz][ly][lx], sum, k));
        }
        __syncthreads();  // the next tile overwrites the shared arrays
    }
}

template <int BX, int BY, int BZ>
void launch_shared(DeviceState& state, const ch::Shape& s, const ch::Coefficients& k, const float* in,
                   const float* base, float* out, float step) {
    const int32_t tiles_x = (s.width + BX - 1) / BX, tiles_y = (s.height + BY - 1) / BY;
    const int64_t tiles = int64_t(tiles_x) * tiles_y * ((s.depth + BZ - 1) / BZ);
    const int blocks = grid_size(state, BX * BY * BZ, tiles * BX * BY * BZ);
    stage_shared<BX, BY, BZ><<<blocks, dim3(BX, BY, BZ), 0, state.stream>>>(s, k, in, base, out, step, tiles_x,
                                                                            tiles_y, tiles);
    check_launch("stage_shared");
}

// One Runge-Kutta stage: out = base + step * f(in).
void stage(DeviceState& state, const ch::Shape& s, const ch::Coefficients& k, bool shared, const float* in,
           const float* base, float* out, float step) {
    if (!shared) {
        stage_global<<<grid(state, s.cells()), kBlock, 0, state.stream>>>(s, k, in, base, out, step);
        check_launch("stage_global");
    } else if (s.three_d()) {
        launch_shared<16, 8, 4>(state, s, k, in, base, out, step);
    } else {
        launch_shared<32, 8, 1>(state, s, k, in, base, out, step);
    }
}

// sizes[l] += 1 for every labelled cell; sums[0] += roots (label == index), sums[1] += labelled cells.
__global__ void count_domains(const int32_t* __restrict__ labels, int32_t n, int32_t* sizes,
                              unsigned long long* sums) {
    unsigned long long roots = 0, labelled = 0;
    for (int32_t i = thread_index(); i < n; i += thread_count()) {
        const int32_t l = labels[i];
        if (l < 0) continue;
        atomicAdd(&sizes[l], 1);
        ++labelled;
        roots += l == i;
    }
    for (int delta = detail::kWarp / 2; delta > 0; delta /= 2) {
        roots += __shfl_down_sync(detail::kFullMask, roots, delta);
        labelled += __shfl_down_sync(detail::kFullMask, labelled, delta);
    }
    if (threadIdx.x % detail::kWarp == 0) {
        atomicAdd(&sums[0], roots);
        atomicAdd(&sums[1], labelled);
    }
}

// sums[2] = the largest size.
__global__ void largest_domain(const int32_t* __restrict__ sizes, int32_t n, unsigned long long* sums) {
    unsigned long long largest = 0;
    for (int32_t i = thread_index(); i < n; i += thread_count()) {
        largest = max(largest, static_cast<unsigned long long>(sizes[i]));
    }
    for (int delta = detail::kWarp / 2; delta > 0; delta /= 2) {
        largest = max(largest, __shfl_down_sync(detail::kFullMask, largest, delta));
    }
    if (threadIdx.x % detail::kWarp == 0) atomicMax(&sums[2], largest);
}

size_t field_bytes(const DeviceField& field) { return static_cast<size_t>(field.shape.cells()) * sizeof(float); }

}  // namespace

DeviceFieldPtr create_field(DeviceState& state, const ch::Shape& shape) {
    state.activate();
    DeviceFieldPtr field(new DeviceField(shape));
    const size_t bytes = field_bytes(*field);
    field->c.reserve(bytes, "concentration field");
    field->half.reserve(bytes, "Runge-Kutta midpoint field");
    field->next.reserve(bytes, "next concentration field");
    field->sums.reserve(3 * sizeof(unsigned long long), "domain counts");
    CCL4J_CUDA_CHECK(cudaMemsetAsync(field->c.as<void>(), 0, bytes, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return field;
}

void field_initial(DeviceState& state, DeviceField& field, float concentration, float noise, uint64_t seed) {
    state.activate();
    const int32_t n = static_cast<int32_t>(field.shape.cells());
    initial_kernel<<<grid(state, n), kBlock, 0, state.stream>>>(n, concentration, noise, seed, field.c.as<float>());
    check_launch("initial_kernel");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

void field_set(DeviceState& state, DeviceField& field, const float* host) {
    state.activate();
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(field.c.as<void>(), host, field_bytes(field), cudaMemcpyDefault, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

void field_copy(DeviceState& state, DeviceField& field, float* host) {
    state.activate();
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(host, field.c.as<void>(), field_bytes(field), cudaMemcpyDefault, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

double field_steps(DeviceState& state, DeviceField& field, const ch::Coefficients& k, bool shared, int64_t steps) {
    state.activate();
    CCL4J_CUDA_CHECK(cudaEventRecord(field.start, state.stream));
    for (int64_t i = 0; i < steps; ++i) {
        stage(state, field.shape, k, shared, field.c.as<float>(), field.c.as<float>(), field.half.as<float>(),
              k.half_dt);
        stage(state, field.shape, k, shared, field.half.as<float>(), field.c.as<float>(), field.next.as<float>(), k.dt);
        field.c.swap(field.next);
    }
    CCL4J_CUDA_CHECK(cudaEventRecord(field.stop, state.stream));
    CCL4J_CUDA_CHECK(cudaEventSynchronize(field.stop));
    float ms = 0;
    CCL4J_CUDA_CHECK(cudaEventElapsedTime(&ms, field.start, field.stop));
    return ms;
}

int64_t field_first_non_finite(DeviceState& state, DeviceField& field) {
    state.activate();
    const int32_t n = static_cast<int32_t>(field.shape.cells());
    auto* first = field.sums.as<unsigned long long>();
    CCL4J_CUDA_CHECK(cudaMemsetAsync(first, 0xff, sizeof(unsigned long long), state.stream));
    first_non_finite<<<grid(state, n), kBlock, 0, state.stream>>>(n, field.c.as<float>(), first);
    check_launch("first_non_finite");
    unsigned long long host = 0;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&host, first, sizeof(host), cudaMemcpyDefault, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return host == ~0ull ? -1 : static_cast<int64_t>(host);
}

void field_threshold(DeviceState& state, DeviceField& field, float level, uint8_t* cells) {
    state.activate();
    const int32_t n = static_cast<int32_t>(field.shape.cells());
    field.cells.reserve(static_cast<size_t>(n), "thresholded cells");
    threshold_kernel<<<grid(state, n), kBlock, 0, state.stream>>>(n, field.c.as<float>(), level,
                                                                  field.cells.as<uint8_t>());
    check_launch("threshold_kernel");
    CCL4J_CUDA_CHECK(
        cudaMemcpyAsync(cells, field.cells.as<void>(), static_cast<size_t>(n), cudaMemcpyDefault, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

DomainCounts field_domains(DeviceState& state, DeviceField& field, float level, const Mesh& mesh,
                           ccl4j_algorithm algorithm, const MeshTuning& tuning, int32_t* labels, PhaseLog& log) {
    state.activate();
    const int32_t n = static_cast<int32_t>(field.shape.cells());
    const float* c = field.c.as<float>();
    auto* sums = field.sums.as<unsigned long long>();
    auto fill = [&](void* cells) {
        threshold_kernel<<<grid(state, n), kBlock, 0, state.stream>>>(n, c, level, static_cast<uint8_t*>(cells));
        check_launch("threshold_kernel");
    };
    auto count = [&](mesh::Call& call, PhasePlan& plan) {
        const int32_t* device_labels = call.labels;
        int32_t* sizes = call.scratch;
        plan.push_back(Phase{"domains", [&state, device_labels, sizes, sums, n] {
                                 CCL4J_CUDA_CHECK(cudaMemsetAsync(sizes, 0, static_cast<size_t>(n) * sizeof(int32_t),
                                                                  state.stream));
                                 CCL4J_CUDA_CHECK(
                                     cudaMemsetAsync(sums, 0, 3 * sizeof(unsigned long long), state.stream));
                                 count_domains<<<grid(state, n), kBlock, 0, state.stream>>>(device_labels, n, sizes,
                                                                                           sums);
                                 check_launch("count_domains");
                                 largest_domain<<<grid(state, n), kBlock, 0, state.stream>>>(sizes, n, sums);
                                 check_launch("largest_domain");
                                 return int32_t{0};
                             }});
    };
    label_mesh_on_device(state, mesh, algorithm, tuning, "threshold", fill, count, labels, log);
    unsigned long long host[3];
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(host, sums, sizeof(host), cudaMemcpyDeviceToHost, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return DomainCounts{static_cast<int64_t>(host[0]), static_cast<int64_t>(host[1]), static_cast<int64_t>(host[2])};
}

}  // namespace ccl4j::cuda
