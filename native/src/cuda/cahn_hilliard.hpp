// The Cahn-Hilliard field on the GPU (cahn_hilliard.cu): the field and its Runge-Kutta buffers stay
// on the device; the thresholded field is written straight into the mesh labelling's own cell
// buffer and labelled and counted there. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <memory>

#include "ccl4j.h"
#include "common/cahn_hilliard.hpp"
#include "common/mesh.hpp"
#include "common/phase_log.hpp"
#include "core/options.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

class DeviceField;
struct DeviceFieldDeleter {
    void operator()(DeviceField* field) const;
};
using DeviceFieldPtr = std::unique_ptr<DeviceField, DeviceFieldDeleter>;

// A field of zeros of this shape on the state's device.
DeviceFieldPtr create_field(DeviceState& state, const ch::Shape& shape);

void field_initial(DeviceState& state, DeviceField& field, float concentration, float noise, uint64_t seed);
void field_set(DeviceState& state, DeviceField& field, const float* host);
void field_copy(DeviceState& state, DeviceField& field, float* host);
// `steps` RK2 steps with the global-memory kernel or the shared-memory one; returns their time in
// ms between two CUDA events.
double field_steps(DeviceState& state, DeviceField& field, const ch::Coefficients& k, bool shared, int64_t steps);
// The index of the field's first cell that is not finite, -1 when all are.
int64_t field_first_non_finite(DeviceState& state, DeviceField& field);
// cells[i] = c > level (host).
void field_threshold(DeviceState& state, DeviceField& field, float level, uint8_t* cells);

struct DomainCounts {
    int64_t domains, foreground, largest;
};
// Thresholds the field into the mesh labelling's cells (mesh: the field's extents, u8, the
// connectivity, boundaries and mode to label with), labels them with `algorithm` and counts the
// domains on the device; labels (host, may be nullptr) receive the labels.
DomainCounts field_domains(DeviceState& state, DeviceField& field, float level, const Mesh& mesh,
                           ccl4j_algorithm algorithm, const MeshTuning& tuning, int32_t* labels, PhaseLog& log);

}  // namespace ccl4j::cuda
