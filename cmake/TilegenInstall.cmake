# What `cmake --install` writes: the launch library and its headers, tilegen and tilegen-run, and a
# CMake package, so that another project can say
#
#   find_package(tilegen REQUIRED)      # CMAKE_PREFIX_PATH=<prefix>
#   target_link_libraries(app PRIVATE tilegen::launch)
#
# and run tilegen::tilegen / tilegen::tilegen-run (imported executables, where installed).

include(CMakePackageConfigHelpers)

set(TILEGEN_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilegen)

install(TARGETS tilegen-launch
  EXPORT tilegenTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES
  ${PROJECT_SOURCE_DIR}/include/tilegen/launch.h
  ${PROJECT_SOURCE_DIR}/include/tilegen/launch.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilegen)
install(EXPORT tilegenTargets
  NAMESPACE tilegen::
  FILE tilegenTargets.cmake
  DESTINATION ${TILEGEN_CMAKE_INSTALL_DIR})

install(TARGETS tilegen-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET tilegen)
  # tilegen links libMLIR/libLLVM from the LLVM install it was built against.
  set_target_properties(tilegen PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS tilegen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/tilegenConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/tilegenConfig.cmake
  INSTALL_DESTINATION ${TILEGEN_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/tilegenConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/cmake/tilegenConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/tilegenConfigVersion.cmake
  DESTINATION ${TILEGEN_CMAKE_INSTALL_DIR})
