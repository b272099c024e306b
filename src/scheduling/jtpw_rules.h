// JTPW's three rules as plain arithmetic (JTPW §2): the job-type test of §2.1 (eqs. (1)-(4)),
// the node load of §2.2 (eqs. (5)-(6)) and the priority weight of §2.3 (eqs. (7)-(8)). The
// jtpw scheduler (scheduling/policies/jtpw.cc) applies them to a run.
#pragma once

#include "api/job.h"
#include "api/units.h"

namespace slotflow {

enum class JobClass { kIo, kCpu };
const char* JobClassName(JobClass c);  // "io", "cpu"

// §2.1 eq. (2), the left side of eqs. (3)-(4): the rate at which N map tasks of a job on one
// node move data, V = N·(1+ρ)·D_in / T_map (ρ = map output / map input, eq. (1)). Infinite
// when T_map is 0 and there is data to move.
BytesPerSecond MapDataRate(int n, double rho, Bytes d_in, Seconds t_map);
// §2.1 eqs. (3)-(4): IO-bound iff V is greater than the disk rate ("大于"), CPU-bound
// otherwise, so a job whose maps just saturate the disk is CPU-bound. A disk that is not
// modelled (rate 0) never limits: CPU-bound.
JobClass ClassifyByRate(BytesPerSecond v, BytesPerSecond disk);

// ρ of a job's map (root) stages from its spec: what they write over what they read (0 when
// they read nothing).
double MapOutputRatio(const JobSpec& job);

// §2.2 eq. (5): the four weights, each in [0, 1], summing to 1.
struct LoadWeights {
  double cpu = 0.25, mem = 0.25, disk = 0.25, net = 0.25;
};
// §2.2 eq. (6): L = w_cpu·U_cpu + w_mem·U_mem + w_disk·U_disk + w_net·U_net.
double NodeLoad(const LoadWeights& w, double u_cpu, double u_mem, double u_disk, double u_net);

// §2.3 eq. (8): the weights of waiting time, CPU held, memory held and initial priority.
struct PriorityWeights {
  double time = 0.2, cpu = 0.3, mem = 0.3, prio = 0.2;
  Seconds threshold = 30;  // T (§3.2: 30 s)
  // Eq. (7)'s second case: true (the default) = P + w_time·T_wait/T + w_cpu·P_cpu + w_mem·P_mem
  // + w_prio·P, as eq. (7) is printed, so waiting past T only ever raises a job (§2.3:
  // "通过提高其权重实现作业优先级提升"); false = the weighted sum without the leading P.
  bool plus_p = true;
};
// §2.3 eq. (7): P_w = P while T_wait < T, else P plus the weighted sum (or the sum alone, with
// plus_p false). P is the initial priority 1..5, T_wait the time since submission, P_cpu and
// P_mem the job's shares of the cluster's slots and memory in [0, 1].
double PriorityWeight(const PriorityWeights& w, int p, Seconds waited, double p_cpu, double p_mem);

}  // namespace slotflow
