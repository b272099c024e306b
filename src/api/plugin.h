// What a shared object of policies built outside slotflow's tree (a plugin, docs/plugins.md)
// writes once, in one of its files:
//
//     SLOTFLOW_PLUGIN();
//
// Its policies register themselves as the built-in ones do (SLOTFLOW_REGISTER_TASK_SCHEDULER,
// SLOTFLOW_REGISTER_NETWORK_POLICY, ...). The installed package's slotflow::core defines
// SLOTFLOW_BUILD_ID, the build the plugin is compiled against; `--plugin` loads a plugin only
// into that same build, since the core's C++ types are its interface.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

// The symbol `--plugin` looks up (run/plugins.h).
#define SLOTFLOW_PLUGIN_SYMBOL "slotflow_plugin_build"

#ifdef SLOTFLOW_BUILD_ID
#define SLOTFLOW_PLUGIN()                                                                 \
  extern "C" __attribute__((visibility("default"))) const char* slotflow_plugin_build() { \
    return SLOTFLOW_BUILD_ID;                                                             \
  }                                                                                       \
  static_assert(true)
#else
#define SLOTFLOW_PLUGIN()                                                                   \
  static_assert(false,                                                                      \
                "SLOTFLOW_BUILD_ID is not defined: build the plugin against the installed " \
                "package (find_package(slotflow), target slotflow::core)")
#endif
