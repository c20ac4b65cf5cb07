# cmake -D REPO=<repo> -D LAMMPS_SOURCE_DIR=<LAMMPS tree> -D WORK_DIR=<scratch>
#       -D CXX=<compiler> -D GENERATOR=<generator> [-D KOKKOS_DIR=<an external Kokkos package>]
#       -P test_kokkos_configure.cmake
# Configures the plugin (configure only, no compile) against made-up LAMMPS build folders:
# a CMakeCache.txt, the compile line of one liblammps object and a Kokkos configuration
# header, as LAMMPS's CMake leaves them. Checks what a user would see:
#   1. bundled Kokkos, KOKKOS_LAYOUT=default, CUDA: configures, warns, CPU styles only;
#   2. the same with KOKKOS_LAYOUT=legacy: the Kokkos styles are built;
#   3. (with KOKKOS_DIR) an external Kokkos whose View implementation differs from the one in
#      LAMMPS's compile line: configuring stops and names the difference;
#   4. a LAMMPS build without GRANULAR: configuring stops and says so;
#   5. no GoogleTest: configures, says the tests are left out, defines none.
cmake_minimum_required(VERSION 3.20)

function(make_lammps_build dir layout kokkos_defines)   # ARGN: extra cache lines
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}/lib/kokkos" "${dir}/kokkos-src")
  set(cache "PKG_KOKKOS:BOOL=on\nPKG_GRANULAR:BOOL=on\nPKG_PLUGIN:BOOL=on\nBUILD_MPI:BOOL=off\n")
  string(APPEND cache "BUILD_OMP:BOOL=off\nBUILD_SHARED_LIBS:BOOL=on\nCMAKE_CXX_COMPILER:FILEPATH=${CXX}\n")
  foreach(line IN LISTS ARGN)
    string(APPEND cache "${line}\n")
  endforeach()
  file(WRITE "${dir}/CMakeCache.txt" "${cache}")
  file(WRITE "${dir}/liblammps.so" "")
  file(WRITE "${dir}/kokkos-src/Kokkos_Core.hpp" "")
  set(config "#define KOKKOS_VERSION ${KOKKOS_VERSION}\n#define KOKKOS_ENABLE_CXX20\n")
  foreach(d IN LISTS kokkos_defines)
    string(APPEND config "#define ${d}\n")
  endforeach()
  file(WRITE "${dir}/lib/kokkos/KokkosCore_config.h" "${config}")
  file(WRITE "${dir}/build.ninja"
    "build CMakeFiles/lammps.dir/src/angle.cpp.o: CXX_COMPILER__lammps_unscanned_Release\n"
    "  DEFINES = -DLAMMPS_SMALLBIG -DLMP_KOKKOS -DLMP_KOKKOS_DOUBLE_DOUBLE -DLMP_KOKKOS_LAYOUT_${layout} -Dlammps_EXPORTS\n"
    "  FLAGS = -O3 -std=c++20 -fPIC\n"
    "  INCLUDES = -I${LAMMPS_SOURCE_DIR}/src -I${dir}/kokkos-src -isystem ${dir}/lib/kokkos\n")
endfunction()

# configure; out_rc, out_log (stdout and stderr), out_sources (the plugin's compile units)
function(configure_plugin lammps_build out_rc out_log out_sources)
  set(bin "${lammps_build}-plugin")
  file(REMOVE_RECURSE "${bin}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${REPO}" -B "${bin}" -G "${GENERATOR}"
    -D CMAKE_CXX_COMPILER=${CXX} -D LAMMPS_SOURCE_DIR=${LAMMPS_SOURCE_DIR}
    -D LAMMPS_BUILD_DIR=${lammps_build} -D DEMC_BUILD_TESTS=off ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(sources "")
  file(GLOB_RECURSE files "${bin}/build.ninja" "${bin}/src/*/build.make")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "(kokkos|styles)/[a-z_]+\\.cpp")
    foreach(l IN LISTS lines)
      string(REGEX MATCHALL "(kokkos|styles)/[a-z_]+\\.cpp" found "${l}")
      list(APPEND sources ${found})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES sources)
  string(REGEX REPLACE "[ \n]+" " " log "${out}${err}")
  set(${out_rc} "${rc}" PARENT_SCOPE)
  set(${out_log} "${log}" PARENT_SCOPE)
  set(${out_sources} "${sources}" PARENT_SCOPE)
endfunction()

function(require what condition)
  if(NOT ${condition})
    message(FATAL_ERROR "${what}\n${log}")
  endif()
  message(STATUS "ok: ${what}")
endfunction()

set(KOKKOS_VERSION 50202)

# 1. KOKKOS_LAYOUT=default with CUDA
make_lammps_build("${WORK_DIR}/default-cuda" DEFAULT "KOKKOS_ENABLE_CUDA;KOKKOS_ENABLE_SERIAL;KOKKOS_ENABLE_IMPL_VIEW_LEGACY")
configure_plugin("${WORK_DIR}/default-cuda" rc log sources)
set(ok_rc FALSE)
if(rc EQUAL 0)
  set(ok_rc TRUE)
endif()
require("KOKKOS_LAYOUT=default, CUDA: configures" ok_rc)
string(FIND "${log}" "the Kokkos styles are not built: LAMMPS was built with -D KOKKOS_LAYOUT=default and Kokkos' CUDA back end" at)
set(ok_warn FALSE)
if(at GREATER -1)
  set(ok_warn TRUE)
endif()
require("KOKKOS_LAYOUT=default, CUDA: says why the Kokkos styles are left out" ok_warn)
set(cpu_in FALSE)
set(kk_out TRUE)
if("styles/pair_gran_kuhn.cpp" IN_LIST sources AND "styles/fix_wall_gran_jaeger.cpp" IN_LIST sources)
  set(cpu_in TRUE)
endif()
if("kokkos/pair_gran_kuhn_kokkos.cpp" IN_LIST sources)
  set(kk_out FALSE)
endif()
require("KOKKOS_LAYOUT=default, CUDA: the CPU styles are built" cpu_in)
require("KOKKOS_LAYOUT=default, CUDA: the Kokkos styles are not" kk_out)

# 2. KOKKOS_LAYOUT=legacy with CUDA
make_lammps_build("${WORK_DIR}/legacy-cuda" LEGACY "KOKKOS_ENABLE_CUDA;KOKKOS_ENABLE_SERIAL;KOKKOS_ENABLE_IMPL_VIEW_LEGACY")
configure_plugin("${WORK_DIR}/legacy-cuda" rc log sources)
set(kk_in FALSE)
if(rc EQUAL 0 AND "kokkos/pair_gran_kuhn_kokkos.cpp" IN_LIST sources
   AND "kokkos/pair_gran_jaeger_kokkos.cpp" IN_LIST sources)
  set(kk_in TRUE)
endif()
require("KOKKOS_LAYOUT=legacy, CUDA: the Kokkos styles are built" kk_in)

# 3. an external Kokkos package other than LAMMPS's
if(KOKKOS_DIR)
  file(STRINGS "${KOKKOS_DIR}/KokkosConfigVersion.cmake" line REGEX "set\\(PACKAGE_VERSION \"")
  string(REGEX MATCH "([0-9]+)\\.([0-9]+)\\.([0-9]+)" v "${line}")
  math(EXPR KOKKOS_VERSION "${CMAKE_MATCH_1} * 10000 + ${CMAKE_MATCH_2} * 100 + ${CMAKE_MATCH_3}")
  # LAMMPS's Kokkos: that package's version, OpenMP, but the legacy View
  make_lammps_build("${WORK_DIR}/external" LEGACY "KOKKOS_ENABLE_OPENMP;KOKKOS_ENABLE_IMPL_VIEW_LEGACY"
    "EXTERNAL_KOKKOS:BOOL=on" "Kokkos_DIR:PATH=${KOKKOS_DIR}")
  configure_plugin("${WORK_DIR}/external" rc log sources)
  set(refused FALSE)
  if(NOT rc EQUAL 0 AND log MATCHES "another Kokkos than LAMMPS's: View implementation LEGACY \\(LAMMPS\\) against MDSPAN")
    set(refused TRUE)
  endif()
  require("an external Kokkos with another View implementation: refused, with the reason" refused)
endif()

# 4. no GRANULAR package
make_lammps_build("${WORK_DIR}/no-granular" LEGACY "KOKKOS_ENABLE_OPENMP" "PKG_GRANULAR:BOOL=off")
configure_plugin("${WORK_DIR}/no-granular" rc log sources)
set(refused FALSE)
if(NOT rc EQUAL 0 AND log MATCHES "lacks the GRANULAR package")
  set(refused TRUE)
endif()
require("a LAMMPS without GRANULAR: refused, with the reason" refused)

# 5. no GoogleTest (hidden from find_package)
configure_plugin("${WORK_DIR}/legacy-cuda" rc log sources -D DEMC_BUILD_TESTS=on
  -D CMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
set(no_tests FALSE)
if(rc EQUAL 0 AND log MATCHES "GoogleTest not found: the tests are left out"
   AND NOT EXISTS "${WORK_DIR}/legacy-cuda-plugin/unittest")
  set(no_tests TRUE)
endif()
require("no GoogleTest: configures without the tests, and says so" no_tests)
