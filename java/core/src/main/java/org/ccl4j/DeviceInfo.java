package org.ccl4j;

/**
 * A CUDA device.
 *
 * @param index             the device index used to select it
 * @param name              e.g. "NVIDIA H100 80GB HBM3"
 * @param totalMemoryBytes  global memory
 * @param computeMajor      compute capability, major part
 * @param computeMinor      compute capability, minor part
 * @param multiprocessors   streaming multiprocessors
 */
public record DeviceInfo(int index, String name, long totalMemoryBytes, int computeMajor, int computeMinor,
                         int multiprocessors) {
}
