// slotflow's version and the git commit it was built from (cmake/version.cmake writes both at
// build time; the commit ends in "-dirty" when the tree had uncommitted changes, and is
// "unknown" outside a git checkout).
#pragma once

namespace slotflow {

const char* SlotflowVersion();
const char* SlotflowCommit();

}  // namespace slotflow
