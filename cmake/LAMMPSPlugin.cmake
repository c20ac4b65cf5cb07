# LAMMPSPlugin.cmake: the interface to a LAMMPS build for out-of-tree plugins.
#
# Two ways to name the LAMMPS the plugin is loaded into:
#   a CMake build tree    -D LAMMPS_SOURCE_DIR=<top of the LAMMPS source tree>
#                         -D LAMMPS_BUILD_DIR=<its CMake build folder>
#   an installed LAMMPS   -D LAMMPS_DIR=<prefix>/lib/cmake/LAMMPS (or CMAKE_PREFIX_PATH=<prefix>)
#     (cmake --install)   -D LAMMPS_SOURCE_DIR=<the source tree it was built from>: the install
#                         holds the library interface's headers only, not those of the
#                         classes the styles derive from (fix_neigh_history.h, the GRANULAR
#                         and KOKKOS packages' headers, the generated style lists)
#   LAMMPS_PLUGIN_DEFINES  optional: the LAMMPS library's compile definitions, where they
#                          cannot be read (build tree without build.ninja or flags.make)
# Defines:
#   target LAMMPS::plugin_api   include paths, definitions, MPI, OpenMP, Kokkos, liblammps
#   LAMMPS_HAS_KOKKOS           ON when the LAMMPS build has the KOKKOS package
#   LAMMPS_KOKKOS_STYLES_FIT    ON when the package's Kokkos styles fit that build
#                               (KOKKOS_LAYOUT; LAMMPSPluginChecks.cmake)
#   LAMMPS_CXX_STANDARD         the C++ standard LAMMPS was compiled with
#   LAMMPS_EXECUTABLE           its lmp (tests and examples run it)
#   LAMMPS_VERSION_NUMBER       YYYYMMDD
#
# A plugin must be compiled with the same definitions as the library it is loaded into
# (LAMMPS_SMALLBIG/BIGBIG, LMP_KOKKOS_*) and against the same Kokkos (version, back ends, View
# implementation): a mismatch silently changes type sizes and layouts. They are therefore read
# from the LAMMPS build itself, not guessed, and checked here.

include(LAMMPSPluginChecks)

set(LAMMPS_SOURCE_DIR "" CACHE PATH "Top of the LAMMPS source tree")
set(LAMMPS_BUILD_DIR "" CACHE PATH "CMake build folder of that LAMMPS tree (or use LAMMPS_DIR)")
set(LAMMPS_PLUGIN_DEFINES "" CACHE STRING "Compile definitions of the LAMMPS library (optional)")
option(DEMC_IGNORE_LAMMPS_VERSION "Configure even for a LAMMPS older than the supported ones" OFF)

if(NOT EXISTS "${LAMMPS_SOURCE_DIR}/src/lammps.h")
  message(FATAL_ERROR "LAMMPS_SOURCE_DIR='${LAMMPS_SOURCE_DIR}' does not hold src/lammps.h. "
    "Name the LAMMPS source tree (the folder with src/ and cmake/) and either its build folder "
    "(-D LAMMPS_BUILD_DIR=...) or the installed LAMMPS (-D LAMMPS_DIR=<prefix>/lib/cmake/LAMMPS). "
    "An installed LAMMPS alone is not enough: cmake --install of LAMMPS copies only the headers of "
    "its library interface (include/lammps/*.h), not fix_neigh_history.h, the GRANULAR and KOKKOS "
    "packages' headers or the generated style lists, which the styles need; use the source tree "
    "of the same release.")
endif()
set(_lmp_src "${LAMMPS_SOURCE_DIR}/src")

add_library(lammps_plugin_api INTERFACE)
add_library(LAMMPS::plugin_api ALIAS lammps_plugin_api)

# --- the LAMMPS build: packages, definitions, compiler settings ---------------------------
# Sets _lmp_defs, _lmp_includes (the library's include folders), _lmp_mpi, _lmp_omp,
# _lmp_kokkos, _lmp_kokkos_source (BUNDLED, EXTERNAL, INSTALLED), LAMMPS_CXX_STANDARD,
# LAMMPS_EXECUTABLE, and links liblammps.

# One compile line of a liblammps object from a CMake build folder (Ninja or Makefiles):
# its definitions (minus the library's own export and plugin-loader switches), include
# folders and the C++ standard.
function(_lammps_read_compile_line build defs_out includes_out std_out)
  set(defines "")
  set(includes "")
  set(flags "")
  if(EXISTS "${build}/build.ninja")
    file(STRINGS "${build}/build.ninja" lines REGEX "^  (DEFINES|FLAGS|INCLUDES) = ")
    set(in_lammps FALSE)
    foreach(line IN LISTS lines)
      if(line MATCHES "^  DEFINES = .*-Dlammps_EXPORTS")
        set(in_lammps TRUE)
        set(defines "${line}")
      elseif(in_lammps AND line MATCHES "^  FLAGS = " AND NOT flags)
        set(flags "${line}")
      elseif(in_lammps AND line MATCHES "^  INCLUDES = " AND NOT includes)
        set(includes "${line}")
        break()      # the first object of liblammps is enough: they share these settings
      endif()
    endforeach()
  elseif(EXISTS "${build}/CMakeFiles/lammps.dir/flags.make")
    file(STRINGS "${build}/CMakeFiles/lammps.dir/flags.make" lines REGEX "^CXX_(DEFINES|FLAGS|INCLUDES) = ")
    foreach(line IN LISTS lines)
      if(line MATCHES "^CXX_DEFINES")
        set(defines "${line}")
      elseif(line MATCHES "^CXX_FLAGS")
        set(flags "${line}")
      elseif(line MATCHES "^CXX_INCLUDES")
        set(includes "${line}")
      endif()
    endforeach()
  endif()
  set(defs "")
  string(REGEX MATCHALL "-D[A-Za-z0-9_]+(=[^ ]*)?" found "${defines}")
  foreach(f IN LISTS found)
    string(SUBSTRING "${f}" 2 -1 d)
    if(NOT d MATCHES "^(lammps_EXPORTS|LMP_PLUGIN|_MPICC_H)$")
      list(APPEND defs "${d}")
    endif()
  endforeach()
  set(dirs "")
  string(REGEX MATCHALL "(-I|-isystem )[^ ]+" found "${includes}")
  foreach(f IN LISTS found)
    string(REGEX REPLACE "^(-I|-isystem )" "" d "${f}")
    list(APPEND dirs "${d}")
  endforeach()
  set(std "")
  if(flags MATCHES "-std=(c|gnu)\\+\\+([0-9]+)")
    set(std "${CMAKE_MATCH_2}")
  endif()
  set(${defs_out} "${defs}" PARENT_SCOPE)
  set(${includes_out} "${dirs}" PARENT_SCOPE)
  set(${std_out} "${std}" PARENT_SCOPE)
endfunction()

function(_lammps_find_config_header dirs out)
  set(found "")
  foreach(d IN LISTS dirs)
    if(NOT found AND EXISTS "${d}/KokkosCore_config.h")
      set(found "${d}/KokkosCore_config.h")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

if(LAMMPS_BUILD_DIR)
  # --- a build tree ------------------------------------------------------------------------
  if(NOT EXISTS "${LAMMPS_BUILD_DIR}/CMakeCache.txt")
    message(FATAL_ERROR "LAMMPS_BUILD_DIR='${LAMMPS_BUILD_DIR}' is not a LAMMPS CMake build folder")
  endif()
  load_cache("${LAMMPS_BUILD_DIR}" READ_WITH_PREFIX LMPCACHE_
    PKG_KOKKOS PKG_GRANULAR PKG_PLUGIN BUILD_MPI BUILD_OMP BUILD_SHARED_LIBS CMAKE_CXX_COMPILER
    EXTERNAL_KOKKOS DOWNLOAD_KOKKOS Kokkos_DIR CMAKE_CXX_STANDARD LAMMPS_MACHINE)
  if(NOT LMPCACHE_PKG_GRANULAR)
    message(FATAL_ERROR "the LAMMPS build in ${LAMMPS_BUILD_DIR} lacks the GRANULAR package "
      "(configure LAMMPS with -D PKG_GRANULAR=on)")
  endif()
  if(NOT LMPCACHE_BUILD_SHARED_LIBS)
    message(FATAL_ERROR "the LAMMPS build in ${LAMMPS_BUILD_DIR} is not a shared library "
      "(configure LAMMPS with -D BUILD_SHARED_LIBS=on -D PKG_PLUGIN=on)")
  endif()
  if(NOT LMPCACHE_PKG_PLUGIN)
    message(WARNING "the LAMMPS build in ${LAMMPS_BUILD_DIR} lacks the PLUGIN package: its lmp "
      "cannot load the plugin (the tests, which load it through the library, still can)")
  endif()
  _lammps_read_compile_line("${LAMMPS_BUILD_DIR}" _lmp_defs _lmp_includes LAMMPS_CXX_STANDARD)
  if(LAMMPS_PLUGIN_DEFINES)
    set(_lmp_defs ${LAMMPS_PLUGIN_DEFINES})
  elseif(NOT _lmp_defs)
    message(FATAL_ERROR "could not read the LAMMPS library's compile definitions from "
      "${LAMMPS_BUILD_DIR}; pass them as -D LAMMPS_PLUGIN_DEFINES=\"LAMMPS_SMALLBIG;...\"")
  endif()
  if(NOT LAMMPS_CXX_STANDARD)
    set(LAMMPS_CXX_STANDARD "${LMPCACHE_CMAKE_CXX_STANDARD}")
  endif()
  set(_lmp_mpi ${LMPCACHE_BUILD_MPI})
  set(_lmp_omp ${LMPCACHE_BUILD_OMP})
  set(_lmp_kokkos ${LMPCACHE_PKG_KOKKOS})
  if(LMPCACHE_EXTERNAL_KOKKOS)
    set(_lmp_kokkos_source EXTERNAL)
  elseif(LMPCACHE_DOWNLOAD_KOKKOS)
    set(_lmp_kokkos_source DOWNLOADED)
  else()
    set(_lmp_kokkos_source BUNDLED)
  endif()
  set(_lmp_suffix "")       # LAMMPS_MACHINE=x names them lmp_x and liblammps_x
  if(LMPCACHE_LAMMPS_MACHINE)
    set(_lmp_suffix "_${LMPCACHE_LAMMPS_MACHINE}")
  endif()
  find_library(LAMMPS_LIBRARY NAMES lammps${_lmp_suffix} lammps lammps_mpi
    PATHS "${LAMMPS_BUILD_DIR}" NO_DEFAULT_PATH REQUIRED)
  target_link_libraries(lammps_plugin_api INTERFACE "${LAMMPS_LIBRARY}")
  target_include_directories(lammps_plugin_api SYSTEM INTERFACE
    "${LAMMPS_BUILD_DIR}/styles" "${LAMMPS_BUILD_DIR}/includes")
  set(LAMMPS_EXECUTABLE "${LAMMPS_BUILD_DIR}/lmp${_lmp_suffix}")
  demc_lammps_version_from_header("${_lmp_src}/version.h" LAMMPS_VERSION_NUMBER)
else()
  # --- an installed LAMMPS (cmake --install): LAMMPSConfig.cmake ----------------------------
  find_package(LAMMPS CONFIG QUIET)
  if(NOT LAMMPS_FOUND)
    message(FATAL_ERROR "no LAMMPS to build against: set -D LAMMPS_BUILD_DIR=<LAMMPS build folder>, "
      "or, for an installed LAMMPS, -D LAMMPS_DIR=<prefix>/lib/cmake/LAMMPS "
      "(or -D CMAKE_PREFIX_PATH=<prefix>); LAMMPS_SOURCE_DIR names its source tree in both cases")
  endif()
  message(STATUS "installed LAMMPS: ${LAMMPS_DIR} (${LAMMPS_LIBRARY})")
  # The exported target carries the public definitions (integer sizes) and the include folder
  # of the installed headers; the KOKKOS package's definitions are private to the library and
  # not exported, so they are read from the installed lmp, which reports them (lmp -h).
  target_link_libraries(lammps_plugin_api INTERFACE LAMMPS::lammps)
  if(TARGET LAMMPS::lmp)
    get_target_property(LAMMPS_EXECUTABLE LAMMPS::lmp IMPORTED_LOCATION_${LAMMPS_CONFIG})
    if(NOT LAMMPS_EXECUTABLE)
      get_target_property(LAMMPS_EXECUTABLE LAMMPS::lmp LOCATION)
    endif()
  endif()
  if(NOT LAMMPS_EXECUTABLE OR NOT EXISTS "${LAMMPS_EXECUTABLE}")
    message(FATAL_ERROR "the installed LAMMPS in ${LAMMPS_DIR} has no lmp executable to read its "
      "configuration from (lmp -h)")
  endif()
  # an installed lmp has no run path by default (LAMMPS's LAMMPS_INSTALL_RPATH): name its library
  get_filename_component(_lmp_libdir "${LAMMPS_LIBRARY}" DIRECTORY)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env
    "LD_LIBRARY_PATH=${_lmp_libdir}:$ENV{LD_LIBRARY_PATH}" "DYLD_LIBRARY_PATH=${_lmp_libdir}:$ENV{DYLD_LIBRARY_PATH}"
    "${LAMMPS_EXECUTABLE}" -h OUTPUT_VARIABLE _lmp_help RESULT_VARIABLE _lmp_rc ERROR_QUIET TIMEOUT 60)
  demc_parse_lmp_help("${_lmp_help}" LMPHELP)
  if(NOT _lmp_rc EQUAL 0 OR NOT LMPHELP_PACKAGES)
    message(FATAL_ERROR "could not run '${LAMMPS_EXECUTABLE} -h' (exit code ${_lmp_rc}) to read "
      "the installed LAMMPS's packages and KOKKOS settings; configure against its build folder "
      "instead (-D LAMMPS_BUILD_DIR=...)")
  endif()
  if(NOT "GRANULAR" IN_LIST LMPHELP_PACKAGES)
    message(FATAL_ERROR "the installed LAMMPS (${LAMMPS_EXECUTABLE}) lacks the GRANULAR package")
  endif()
  if(NOT "PLUGIN" IN_LIST LMPHELP_PACKAGES)
    message(WARNING "the installed LAMMPS (${LAMMPS_EXECUTABLE}) lacks the PLUGIN package: it cannot load the plugin")
  endif()
  get_target_property(_lmp_defs LAMMPS::lammps INTERFACE_COMPILE_DEFINITIONS)
  if(NOT _lmp_defs)
    set(_lmp_defs "")
  endif()
  if(LMPHELP_INTEGERS AND NOT LMPHELP_INTEGERS IN_LIST _lmp_defs)
    list(APPEND _lmp_defs ${LMPHELP_INTEGERS})
  endif()
  set(_lmp_kokkos OFF)
  if("KOKKOS" IN_LIST LMPHELP_PACKAGES)
    set(_lmp_kokkos ON)
    set(_lmp_kokkos_source INSTALLED)
    list(APPEND _lmp_defs LMP_KOKKOS LMP_KOKKOS_${LMPHELP_KOKKOS_PRECISION}
                          LMP_KOKKOS_LAYOUT_${LMPHELP_KOKKOS_LAYOUT})
  endif()
  if(LAMMPS_PLUGIN_DEFINES)
    set(_lmp_defs ${LAMMPS_PLUGIN_DEFINES})
  endif()
  set(LAMMPS_CXX_STANDARD "${LMPHELP_CXX_STANDARD}")
  set(LAMMPS_VERSION_NUMBER "${LMPHELP_VERSION}")
  # the exported target links MPI and OpenMP privately: their compile settings are added here
  set(_lmp_mpi ${LMPHELP_MPI})
  set(_lmp_omp ${LMPHELP_OPENMP})
  if(NOT _lmp_mpi)
    target_include_directories(lammps_plugin_api SYSTEM INTERFACE "${_lmp_src}/STUBS")
  endif()
  set(_lmp_includes "")
  # the headers must be those of the installed library's release
  demc_lammps_version_from_header("${_lmp_src}/version.h" _src_version)
  if(NOT _src_version STREQUAL LAMMPS_VERSION_NUMBER)
    message(FATAL_ERROR "LAMMPS_SOURCE_DIR holds LAMMPS ${_src_version} but the installed LAMMPS "
      "is ${LAMMPS_VERSION_NUMBER}: name the source tree the installed LAMMPS was built from")
  endif()
endif()

demc_lammps_version_status("${LAMMPS_VERSION_NUMBER}" _lmp_vstatus _lmp_vmessage)
if(_lmp_vstatus STREQUAL "OK")
  message(STATUS "${_lmp_vmessage}")
elseif(_lmp_vstatus STREQUAL "NEWER" OR DEMC_IGNORE_LAMMPS_VERSION)
  message(WARNING "${_lmp_vmessage}")
else()
  message(FATAL_ERROR "${_lmp_vmessage}")
endif()
message(STATUS "LAMMPS definitions: ${_lmp_defs}")

# Package headers are not copied into src/ by the CMake build (nor installed): include the
# folders our styles use.
target_include_directories(lammps_plugin_api SYSTEM INTERFACE "${_lmp_src}" "${_lmp_src}/GRANULAR")
target_compile_definitions(lammps_plugin_api INTERFACE ${_lmp_defs})

if(_lmp_mpi)
  set(MPI_CXX_SKIP_MPICXX TRUE)
  find_package(MPI REQUIRED COMPONENTS CXX)
  target_link_libraries(lammps_plugin_api INTERFACE MPI::MPI_CXX)
elseif(LAMMPS_BUILD_DIR)
  target_include_directories(lammps_plugin_api SYSTEM INTERFACE "${_lmp_src}/STUBS")
endif()
if(_lmp_omp)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
  target_link_libraries(lammps_plugin_api INTERFACE OpenMP::OpenMP_CXX)
endif()

set(LAMMPS_HAS_KOKKOS ${_lmp_kokkos})
set(LAMMPS_KOKKOS_STYLES_FIT OFF)
if(LAMMPS_HAS_KOKKOS)
  include(LAMMPSPluginKokkos)
endif()
