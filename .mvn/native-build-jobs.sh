#!/bin/sh
# How many compile jobs the native build (cmake --build --parallel N, from the root pom) runs at
# once: the cores this build may use, and no more than there is memory for, at 2 GiB a job:
#   jobs = max(1, min(cores, available memory / 2 GiB))
# The largest CUDA compile (src/cuda/statistics.cu: nvcc, cicc and ptxas for sm_80 and sm_90;
# CUDA 13.0) peaks at 0.6 GB of resident memory, g++ below that; 2 GiB a job leaves room for the
# rest of the machine (the JVM of Maven, an IDE) and for other nvcc versions and flags.
# Cores: nproc (the CPUs this process may run on), less a cgroup v2 CPU quota (containers).
# Memory: MemAvailable of /proc/meminfo, or what a cgroup v2 memory limit leaves if less. Where
# neither can be read (no /proc), the cores alone.
# Usage: native-build-jobs.sh [GIVEN [CORES MEMORY_MIB]]
#   GIVEN        the user's -Dccl4j.build.jobs; a positive number is taken as it is, anything else
#                (the unexpanded ${ccl4j.build.jobs} when it is not set) means "compute"
#   CORES, MEMORY_MIB   instead of this machine's (tests; MEMORY_MIB may be "unknown")
# Prints two properties, which the root pom loads: native.build.jobs and native.build.jobs.why.
set -u
per_job_mib=2048
given=${1:-}

case $given in
  '' | *[!0-9]* | 0*) ;;
  *)
    echo "native.build.jobs=$given"
    echo "native.build.jobs.why=set by -Dccl4j.build.jobs"
    exit 0
    ;;
esac

if [ $# -ge 3 ]; then
  cores=$2
  mem_mib=$3
else
  cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null ||
          getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
  # a CPU quota: "max 100000" or "200000 100000" (two CPUs' time)
  if [ -r /sys/fs/cgroup/cpu.max ] && read -r quota period </sys/fs/cgroup/cpu.max &&
     [ "$quota" != max ] && [ "${period:-0}" -gt 0 ] 2>/dev/null; then
    quota_cpus=$(( (quota + period - 1) / period ))
    [ "$quota_cpus" -lt "$cores" ] && cores=$quota_cpus
  fi
  mem_mib=$(awk '/^MemAvailable:/ { print int($2 / 1024); found = 1 } END { if (!found) print "unknown" }' \
            /proc/meminfo 2>/dev/null) || mem_mib=unknown
  [ -n "$mem_mib" ] || mem_mib=unknown
  if [ -r /sys/fs/cgroup/memory.max ] && read -r limit </sys/fs/cgroup/memory.max && [ "$limit" != max ]; then
    # the page cache it holds counts in memory.current, and can be reclaimed
    used=$(cat /sys/fs/cgroup/memory.current 2>/dev/null || echo 0)
    reclaimable=$(awk '$1 == "inactive_file" { print $2 }' /sys/fs/cgroup/memory.stat 2>/dev/null)
    used=$(( used - ${reclaimable:-0} ))
    cgroup_mib=$(( (limit - used) / 1048576 ))
    if [ "$mem_mib" = unknown ] || [ "$cgroup_mib" -lt "$mem_mib" ]; then mem_mib=$cgroup_mib; fi
  fi
fi

case $cores in '' | *[!0-9]*) cores=1 ;; esac
jobs=$cores
if [ "$cores" -eq 1 ]; then cores_said="1 core"; else cores_said="$cores cores"; fi
if [ "$mem_mib" = unknown ]; then
  why="$cores_said; available memory unknown; -Dccl4j.build.jobs=N to change"
else
  by_memory=$(( mem_mib / per_job_mib ))
  [ "$by_memory" -lt "$jobs" ] && jobs=$by_memory
  why="$cores_said, $mem_mib MiB available at $per_job_mib MiB a job; -Dccl4j.build.jobs=N to change"
fi
[ "$jobs" -ge 1 ] || jobs=1
echo "native.build.jobs=$jobs"
echo "native.build.jobs.why=$why"
