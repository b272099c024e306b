// Policies built outside slotflow's tree, loaded at run time (docs/plugins.md).
#pragma once

#include <string>

namespace slotflow {

// Loads the plugin at `path` (a shared object with SLOTFLOW_PLUGIN(), api/plugin.h) into this
// process: its task schedulers, network policies and workload generators register as it loads,
// beside the built-in ones. Loading the same file again does nothing. InputError naming `field`
// when the file cannot be loaded, is not a slotflow plugin, was built against another build of
// slotflow, or registers a name already taken; then none of its policies stays registered, and
// loading it again gives the same error.
void LoadPlugin(const std::string& path, const std::string& field);

// slotflow's version and commit as a plugin records them: "0.9.0 (commit 1a2b...)".
std::string SlotflowBuildId();

}  // namespace slotflow
