# LAMMPSPlugin.cmake: the interface to a LAMMPS build for out-of-tree plugins.
#
# Inputs (cache variables):
#   LAMMPS_SOURCE_DIR  top of the LAMMPS source tree (the folder that holds src/ and cmake/)
#   LAMMPS_BUILD_DIR   the CMake build folder of that tree (holds liblammps.so, styles/)
#   LAMMPS_PLUGIN_DEFINES  optional: the compile definitions of the LAMMPS library, if they
#                      cannot be read from the build folder (e.g. a non-CMake build)
# Defines:
#   target LAMMPS::plugin_api   include paths, definitions, MPI, OpenMP, Kokkos, liblammps
#   LAMMPS_HAS_KOKKOS          ON when the LAMMPS build has the KOKKOS package
#
# A plugin must be compiled with the same definitions as the library it is loaded into
# (LAMMPS_SMALLBIG/BIGBIG, LMP_KOKKOS_*): a mismatch silently changes type sizes and
# layouts. They are therefore read from the LAMMPS build itself, not guessed.

set(LAMMPS_SOURCE_DIR "" CACHE PATH "Top of the LAMMPS source tree")
set(LAMMPS_BUILD_DIR "" CACHE PATH "CMake build folder of that LAMMPS tree")
set(LAMMPS_PLUGIN_DEFINES "" CACHE STRING "Compile definitions of the LAMMPS library (optional)")

if(NOT EXISTS "${LAMMPS_SOURCE_DIR}/src/lammps.h")
  message(FATAL_ERROR "LAMMPS_SOURCE_DIR='${LAMMPS_SOURCE_DIR}' does not hold src/lammps.h")
endif()
if(NOT EXISTS "${LAMMPS_BUILD_DIR}/CMakeCache.txt")
  message(FATAL_ERROR "LAMMPS_BUILD_DIR='${LAMMPS_BUILD_DIR}' is not a LAMMPS CMake build folder")
endif()

load_cache("${LAMMPS_BUILD_DIR}" READ_WITH_PREFIX LMPCACHE_
  PKG_KOKKOS PKG_GRANULAR BUILD_MPI BUILD_OMP BUILD_SHARED_LIBS CMAKE_CXX_COMPILER)
if(NOT LMPCACHE_PKG_GRANULAR)
  message(FATAL_ERROR "the LAMMPS build in ${LAMMPS_BUILD_DIR} lacks the GRANULAR package")
endif()
if(NOT LMPCACHE_BUILD_SHARED_LIBS)
  message(FATAL_ERROR "the LAMMPS build in ${LAMMPS_BUILD_DIR} is not a shared library "
    "(configure LAMMPS with -D BUILD_SHARED_LIBS=on -D PKG_PLUGIN=on)")
endif()
set(LAMMPS_HAS_KOKKOS ${LMPCACHE_PKG_KOKKOS})

# Read the library's compile definitions from the generated build files.
function(_lammps_read_defines out)
  set(defs "")
  if(EXISTS "${LAMMPS_BUILD_DIR}/build.ninja")
    file(STRINGS "${LAMMPS_BUILD_DIR}/build.ninja" lines REGEX "^  DEFINES = .*-Dlammps_EXPORTS")
  elseif(EXISTS "${LAMMPS_BUILD_DIR}/CMakeFiles/lammps.dir/flags.make")
    file(STRINGS "${LAMMPS_BUILD_DIR}/CMakeFiles/lammps.dir/flags.make" lines REGEX "^CXX_DEFINES")
  endif()
  if(lines)
    list(GET lines 0 line)
    string(REGEX MATCHALL "-D[A-Za-z0-9_]+(=[^ ]*)?" flags "${line}")
    foreach(f ${flags})
      string(SUBSTRING "${f}" 2 -1 d)
      # the library's own export macro and plugin-loader switch are not API definitions
      if(NOT d MATCHES "^(lammps_EXPORTS|LMP_PLUGIN|_MPICC_H)$")
        list(APPEND defs "${d}")
      endif()
    endforeach()
  endif()
  set(${out} "${defs}" PARENT_SCOPE)
endfunction()

if(LAMMPS_PLUGIN_DEFINES)
  set(_lmp_defs ${LAMMPS_PLUGIN_DEFINES})
else()
  _lammps_read_defines(_lmp_defs)
  if(NOT _lmp_defs)
    message(FATAL_ERROR "could not read the LAMMPS library's compile definitions from "
      "${LAMMPS_BUILD_DIR}; pass them as -D LAMMPS_PLUGIN_DEFINES=\"LAMMPS_SMALLBIG;...\"")
  endif()
endif()
message(STATUS "LAMMPS definitions: ${_lmp_defs}")

find_library(LAMMPS_LIBRARY NAMES lammps lammps_mpi PATHS "${LAMMPS_BUILD_DIR}" NO_DEFAULT_PATH REQUIRED)

add_library(lammps_plugin_api INTERFACE)
add_library(LAMMPS::plugin_api ALIAS lammps_plugin_api)
set(_lmp_src "${LAMMPS_SOURCE_DIR}/src")
# Package headers are not copied into src/ by the CMake build: include the folders our
# styles use, and the build's generated style lists.
target_include_directories(lammps_plugin_api SYSTEM INTERFACE
  "${_lmp_src}" "${_lmp_src}/GRANULAR" "${LAMMPS_BUILD_DIR}/styles" "${LAMMPS_BUILD_DIR}/includes")
target_compile_definitions(lammps_plugin_api INTERFACE ${_lmp_defs})
target_link_libraries(lammps_plugin_api INTERFACE "${LAMMPS_LIBRARY}")

if(LMPCACHE_BUILD_MPI)
  set(MPI_CXX_SKIP_MPICXX TRUE)
  find_package(MPI REQUIRED COMPONENTS CXX)
  target_link_libraries(lammps_plugin_api INTERFACE MPI::MPI_CXX)
else()
  target_include_directories(lammps_plugin_api SYSTEM INTERFACE "${_lmp_src}/STUBS")
endif()
if(LMPCACHE_BUILD_OMP)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
  target_link_libraries(lammps_plugin_api INTERFACE OpenMP::OpenMP_CXX)
endif()
if(LAMMPS_HAS_KOKKOS)
  find_package(Kokkos REQUIRED)
  target_include_directories(lammps_plugin_api SYSTEM INTERFACE "${_lmp_src}/KOKKOS")
  target_link_libraries(lammps_plugin_api INTERFACE Kokkos::kokkos)
endif()
