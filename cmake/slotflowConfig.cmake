# The slotflow package: slotflow::core (libslotflow and its headers) for policies built outside
# the tree and loaded with `slotflow run --plugin FILE.so` (docs/plugins.md).
include(CMakeFindDependencyMacro)
find_dependency(fmt)
find_dependency(tomlplusplus)
find_dependency(nlohmann_json)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/slotflowTargets.cmake)
# SLOTFLOW_BUILD_ID: the version and commit of the installed build, compiled into a plugin by
# SLOTFLOW_PLUGIN() (api/plugin.h) and checked when it is loaded.
include(${CMAKE_CURRENT_LIST_DIR}/slotflow-build.cmake)
set_property(TARGET slotflow::core APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS
             "SLOTFLOW_BUILD_ID=\"${SLOTFLOW_BUILD_ID}\"")
