# What `cmake --install` puts under the prefix besides bin/slotflow: libslotflow, the policy
# API's headers (src/api/ as include/slotflow/api/, included as "api/task_scheduler.h" and so
# on; the rest of the core is not for plugins) and the CMake package
# slotflow, so that a policy in its own repository builds with find_package(slotflow) and links
# slotflow::core (docs/plugins.md).
install(TARGETS slotflow RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(SLOTFLOW_FUZZ)  # the core is not a library of its own there
  return()
endif()
install(TARGETS slotflow_core EXPORT slotflowTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/api/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/slotflow/api
        FILES_MATCHING PATTERN "*.h")
set(SLOTFLOW_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/slotflow)
install(EXPORT slotflowTargets NAMESPACE slotflow:: DESTINATION ${SLOTFLOW_PACKAGE_DIR})
include(CMakePackageConfigHelpers)
# A plugin is loaded only by the build it was compiled against (the core's C++ types are its
# interface): the same version and commit.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/slotflowConfigVersion.cmake
                                 COMPATIBILITY ExactVersion)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/slotflowConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/slotflowConfigVersion.cmake
              ${SLOTFLOW_BUILD_ID_FILE}
        DESTINATION ${SLOTFLOW_PACKAGE_DIR})
