// The rate allocator's tuning thresholds and salts, each with the reason for its value.
// The times quoted are runs of the FB trace, from docs/benchmarks.md and the commits that set
// each value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace slotflow::rates {

// --- Rounding -----------------------------------------------------------------------------

// A group's service counter is a long sum of rate x time; its rounding, relative to the target
// it is compared with, stays far below this (an ulp is 2.2e-16), which stays far below
// kRelTolerance. Added to the completion and mark tolerances.
inline constexpr double kServiceRounding = 1e-12;
// Explicit rates whose sum exceeds a link by at most this fraction are not scaled down: MADD
// fills links exactly, so such an excess is rounding (not scaling them: varys 25.9 -> 24.3 s
// CPU, same results).
inline constexpr double kExplicitSumRounding = 1e-12;

// --- Hashing ------------------------------------------------------------------------------

// boost::hash_combine's salt, 2^64 / golden ratio: spreads consecutive link ids over the
// buckets of path interning, whose hash starts from the path's length (the shifts 6 and 2 in
// HashMix, paths.h, are the same recipe's).
inline constexpr uint64_t kHashSalt = 0x9e3779b97f4a7c15ULL;

// --- Group ids ----------------------------------------------------------------------------

// Ids freed below the highest live one make every whole-array pass longer, so the ids are
// repacked when more than a ninth are dead, hi > 9/8 x live (repacking at a third: aalo 41 ->
// 28 s; at a ninth instead: fair 3.7 -> 3.5 s, tcf 8.8 -> 8.6 s) ...
inline constexpr int32_t kRepackIdsNumerator = 9;
inline constexpr int32_t kRepackIdsDenominator = 8;
// ... but not while there are so few ids that a pass over the dead ones costs next to nothing
// (a round number; no measurement recorded).
inline constexpr int32_t kRepackMinIds = 64;

// --- Choice of fill -----------------------------------------------------------------------

// A class needs at least this many groups before it is held as a dense two-link matrix: with
// fewer, the sparse water fill is already cheap and the matrix not worth building (a round
// number from the first dense fill; no measurement recorded).
inline constexpr size_t kDenseMinGroups = 64;
// A class becomes dense when its matrix has at most this many cells per group (a dense fill
// scans whole rows and columns, so the matrix must not be sparse) ...
inline constexpr size_t kDenseEnterCellsPerGroup = 4;
// ... and sparse again only beyond this many, so a class near the bound is not rebuilt at
// every solve (the margin is not measured).
inline constexpr size_t kDenseLeaveCellsPerGroup = 16;
// The explicit-rate backfill stays dense down to this many cells per group: only a dense
// backfill can go on from its last fill, which beats starting a sparse one over (varys
// 13.0-14.8 -> 12.0-12.2 s back to back) ...
inline constexpr size_t kExplicitLeaveCellsPerGroup = 1024;
// ... and becomes dense at a quarter of that, the same 4:1 margin as a class's bounds.
inline constexpr size_t kExplicitEnterCellsPerGroup = kExplicitLeaveCellsPerGroup / 4;
// The sparse water fill finds each round's bottleneck with a min-tree instead of a scan of the
// open links when links^2 > this x groups: few groups over many links, as in a small priority
// class, where the scan's rounds x links dominates (with the change that brought it, an
// 8-class bench solve went 2.0 -> 0.8 ms CPU).
inline constexpr size_t kMinTreeLinksSquaredPerGroup = 8;
// Classes above the first changed one keep their rates, restored from the residual capacity
// saved after each class: one number per link per class, so at most 4 Mi numbers (32 MiB), not
// for the many thousands of classes of some unlimited-queue policies.
inline constexpr size_t kMaxSavedResiduals = size_t{1} << 22;

// --- Local fills --------------------------------------------------------------------------

// Local fills are tried only for dense classes over at least this many links: below, a whole
// fill is cheap enough that a local one does not pay for its bookkeeping (FB as jobs, 100
// links: 1.43 s with local fills, 1.06 s without; network mode, 294 links: 20-40 % saved).
inline constexpr size_t kLocalFillMinLinks = 200;
// A sparse class is filled locally (LocalWaterFill) only with at least this many groups: the
// whole water fill of fewer is cheap, and a local one first pays for listing every group by
// link (a round number; the 10,000-server runs that it is for have tens of thousands).
inline constexpr size_t kLocalWaterFillMinGroups = 1024;
// ... on a network of at least this many links. Below, the whole water fill is cheap; and on
// the FB trace in network mode (294 links), where srpt's sparse class 0 reaches 1,024 groups
// at times, local fills changed srpt's results (16 more events, 238 of the numbers in
// jobs.csv, jobs under 10 ms taking half or twice as long). Each of the 4,609 local fills of
// that run was checked to be max-min (every group has a full link on which its rate is the
// highest, no link over capacity, to 1e-9), so the rates agree to rounding and what moved is
// which of two events at (nearly) the same time came first. 1,000 servers have 2,000 links.
inline constexpr size_t kLocalWaterFillMinNetworkLinks = 1000;
// A local fill gives up once its region holds more than 1 / this of the lines: it would then
// cost about as much as the whole fill (an estimate; no measurement recorded).
inline constexpr size_t kLocalRegionMaxFraction = 3;
// After a local fill that reached too far, the next ones likely will too (a policy whose every
// change lands in a high class): skip 1, 3, 7, ... whole fills before trying again, at most
// this many, so a class whose changes turn local again is soon filled locally again (the cap
// is not measured).
inline constexpr int kLocalBackoffMax = 31;

}  // namespace slotflow::rates
