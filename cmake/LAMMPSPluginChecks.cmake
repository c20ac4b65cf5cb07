# LAMMPSPluginChecks.cmake: the decisions of LAMMPSPlugin.cmake that depend only on text
# (version strings, configuration headers, compile definitions), as functions without side
# effects, so that unittest/cmake/test_plugin_checks.cmake can feed them every case (cmake -P).

# The LAMMPS versions this package is known to build and pass its tests with, as YYYYMMDD.
#   minimum: the oldest release tested. The Kokkos styles use LAMMPS's KOKKOS package of the
#     Kokkos 5 generation (C++20, the precision types KK_FLOAT/KK_ACC_FLOAT, LAMMPS requiring
#     Kokkos >= 5.1.0 since the end of March 2026), and no earlier release has been built.
#   tested: the release the environment (tools/env.sh) builds; newer ones are accepted with
#     a warning, since the KOKKOS package's internals change between releases.
set(DEMC_LAMMPS_MIN_VERSION 20260704)
set(DEMC_LAMMPS_TESTED_VERSION 20260704)

# "4 Jul 2026" (version.h's LAMMPS_VERSION, or `lmp -h`) -> 20260704; "" when unreadable
function(demc_lammps_version_number text out)
  set(months Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)
  set(number "")
  if(text MATCHES "([0-9]+) ([A-Z][a-z][a-z])[a-z]* ([0-9][0-9][0-9][0-9])")
    list(FIND months "${CMAKE_MATCH_2}" month)
    if(month GREATER -1)
      math(EXPR number "${CMAKE_MATCH_3} * 10000 + (${month} + 1) * 100 + ${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${number}" PARENT_SCOPE)
endfunction()

# LAMMPS's version from its src/version.h, as YYYYMMDD ("" when the file has none)
function(demc_lammps_version_from_header header out)
  set(number "")
  if(EXISTS "${header}")
    file(STRINGS "${header}" line REGEX "define LAMMPS_VERSION ")
    demc_lammps_version_number("${line}" number)
  endif()
  set(${out} "${number}" PARENT_SCOPE)
endfunction()

# Classifies a LAMMPS version: out_status is OK, NEWER (accepted, warn) or OLDER (refuse) or
# UNKNOWN; out_message says it in words.
function(demc_lammps_version_status version out_status out_message)
  set(range "dem-contact supports LAMMPS ${DEMC_LAMMPS_MIN_VERSION} (4 Jul 2026, tested)")
  if(NOT version MATCHES "^[0-9]+$")
    set(status UNKNOWN)
    set(text "could not read the LAMMPS version; ${range}")
  elseif(version LESS DEMC_LAMMPS_MIN_VERSION)
    set(status OLDER)
    set(text "LAMMPS ${version} is older than the oldest supported release: ${range} and "
             "later. Its KOKKOS package and the interfaces the styles use differ; update LAMMPS, "
             "or configure with -D DEMC_IGNORE_LAMMPS_VERSION=on to try anyway")
  elseif(version GREATER DEMC_LAMMPS_TESTED_VERSION)
    set(status NEWER)
    set(text "LAMMPS ${version} is newer than the release this package was tested with "
             "(${DEMC_LAMMPS_TESTED_VERSION}); if the Kokkos styles do not compile, "
             "-D DEMC_KOKKOS_STYLES=off builds the others")
  else()
    set(status OK)
    set(text "LAMMPS ${version}: supported")
  endif()
  string(JOIN "" text ${text})
  set(${out_status} ${status} PARENT_SCOPE)
  set(${out_message} "${text}" PARENT_SCOPE)
endfunction()

# Reads a Kokkos configuration header (KokkosCore_config.h) into
#   <prefix>_VERSION      5.2.2
#   <prefix>_BACKENDS     enabled execution spaces, e.g. OPENMP;SERIAL (sorted)
#   <prefix>_VIEW         LEGACY (Kokkos_ENABLE_IMPL_VIEW_LEGACY) or MDSPAN
#   <prefix>_CXX_STANDARD the standard Kokkos was configured for (20, 23, 26)
#   <prefix>_FOUND        TRUE when the file was read
function(demc_kokkos_read_config header prefix)
  set(found FALSE)
  set(version "")
  set(backends "")
  set(view MDSPAN)
  set(standard "")
  if(EXISTS "${header}")
    set(found TRUE)
    file(STRINGS "${header}" lines REGEX "^#define KOKKOS_")
    foreach(line IN LISTS lines)
      if(line MATCHES "^#define KOKKOS_VERSION ([0-9]+)")
        math(EXPR major "${CMAKE_MATCH_1} / 10000")
        math(EXPR minor "${CMAKE_MATCH_1} / 100 % 100")
        math(EXPR patch "${CMAKE_MATCH_1} % 100")
        set(version "${major}.${minor}.${patch}")
      elseif(line MATCHES "^#define KOKKOS_ENABLE_(SERIAL|OPENMP|THREADS|CUDA|HIP|SYCL|OPENMPTARGET|OPENACC|HPX|NEXTSILICON)$")
        list(APPEND backends ${CMAKE_MATCH_1})
      elseif(line MATCHES "^#define KOKKOS_ENABLE_IMPL_VIEW_LEGACY$")
        set(view LEGACY)
      elseif(line MATCHES "^#define KOKKOS_ENABLE_CXX([0-9]+)$")
        set(standard ${CMAKE_MATCH_1})
      endif()
    endforeach()
    list(SORT backends)
  endif()
  foreach(var FOUND VERSION BACKENDS VIEW CXX_STANDARD)
    string(TOLOWER ${var} local)
    if(var STREQUAL FOUND)
      set(local found)
    elseif(var STREQUAL CXX_STANDARD)
      set(local standard)
    endif()
    set(${prefix}_${var} "${${local}}" PARENT_SCOPE)
  endforeach()
endfunction()

# Compares the Kokkos LAMMPS was compiled with (prefix a, read by demc_kokkos_read_config)
# with the one the plugin would be compiled with (prefix b): out is the list of differences
# in words ("" when they agree). Each one changes types or layouts the plugin shares with
# liblammps, so compiling across any of them gives a plugin that crashes or computes garbage.
function(demc_kokkos_compare a b out)
  set(diffs "")
  if(NOT "${${a}_VERSION}" STREQUAL "${${b}_VERSION}")
    list(APPEND diffs "version ${${a}_VERSION} (LAMMPS) against ${${b}_VERSION} (plugin)")
  endif()
  if(NOT "${${a}_BACKENDS}" STREQUAL "${${b}_BACKENDS}")
    string(REPLACE ";" "+" ba "${${a}_BACKENDS}")
    string(REPLACE ";" "+" bb "${${b}_BACKENDS}")
    list(APPEND diffs "back ends ${ba} (LAMMPS) against ${bb} (plugin)")
  endif()
  if(NOT "${${a}_VIEW}" STREQUAL "${${b}_VIEW}")
    list(APPEND diffs "View implementation ${${a}_VIEW} (LAMMPS) against ${${b}_VIEW} (plugin), Kokkos_ENABLE_IMPL_VIEW_LEGACY differs")
  endif()
  set(${out} "${diffs}" PARENT_SCOPE)
endfunction()

# Whether the package's Kokkos styles fit a LAMMPS build: its compile definitions (the
# KOKKOS_LAYOUT option as LMP_KOKKOS_LAYOUT_LEGACY / LMP_KOKKOS_LAYOUT_DEFAULT, the KOKKOS_PREC
# option as LMP_KOKKOS_DOUBLE_DOUBLE / SINGLE_DOUBLE / SINGLE_SINGLE) and Kokkos' back ends.
# - Layout. With KOKKOS_LAYOUT=legacy (the default) LAMMPS's per-atom and per-pair arrays are
#   LayoutRight everywhere; with KOKKOS_LAYOUT=default they take the default layout of Kokkos'
#   default execution space: LayoutRight on host back ends (the same arrays), LayoutLeft on GPU
#   back ends. The styles need contiguous rows: the host instantiation's per-thread force and
#   torque copies (rows of three) and gran/jaeger/kk's history slots, each guarded by a
#   static_assert that stops the compile otherwise (checked with nvcc for CUDA).
# - Precision. gran/jaeger/kk keeps its history points as doubles in fix neigh/history/kk's
#   KK_FLOAT values: single or mixed precision stops its compile (a static_assert too).
# The Kokkos styles are built together or not at all; the CPU styles are built in every case.
# out_fit: TRUE/FALSE; out_reason: why not, in words ("" when they fit).
function(demc_kokkos_styles_fit defines backends out_fit out_reason)
  set(layout legacy)      # kokkos_type.h: neither definition means legacy
  if("LMP_KOKKOS_LAYOUT_DEFAULT" IN_LIST defines)
    set(layout default)
  endif()
  set(precision double)   # kokkos_type.h: no definition means double
  if("LMP_KOKKOS_SINGLE_DOUBLE" IN_LIST defines)
    set(precision mixed)
  elseif("LMP_KOKKOS_SINGLE_SINGLE" IN_LIST defines)
    set(precision single)
  endif()
  set(devices "")
  foreach(space CUDA HIP SYCL OPENMPTARGET OPENACC)
    if(space IN_LIST backends)
      list(APPEND devices ${space})
    endif()
  endforeach()
  set(fit TRUE)
  set(reason "")
  if(layout STREQUAL "default" AND devices)
    set(fit FALSE)
    string(REPLACE ";" "+" devices "${devices}")
    string(CONCAT reason "LAMMPS was built with -D KOKKOS_LAYOUT=default and Kokkos' ${devices} "
      "back end, which makes its per-atom force and torque arrays and the neighbor histories "
      "LayoutLeft; gran/kuhn/kk and gran/jaeger/kk need them as contiguous rows (LayoutRight, "
      "as KOKKOS_LAYOUT=legacy keeps them) and would not compile. The CPU styles are built; for "
      "the Kokkos styles rebuild LAMMPS with -D KOKKOS_LAYOUT=legacy (the default)")
  elseif(NOT precision STREQUAL "double")
    set(fit FALSE)
    string(CONCAT reason "LAMMPS was built with -D KOKKOS_PREC=${precision}; gran/jaeger/kk keeps "
      "its history points as doubles in fix neigh/history/kk's values and needs double "
      "precision. The CPU styles are built; for the Kokkos styles rebuild LAMMPS with "
      "-D KOKKOS_PREC=double (the default)")
  endif()
  set(${out_fit} ${fit} PARENT_SCOPE)
  set(${out_reason} "${reason}" PARENT_SCOPE)
endfunction()

# Parses the "Accelerator configuration" and "Installed packages" parts of `lmp -h` (an
# installed LAMMPS, whose exported target does not carry the KOKKOS settings) into
#   <prefix>_VERSION (YYYYMMDD), <prefix>_PACKAGES, <prefix>_KOKKOS_BACKENDS (e.g. OPENMP),
#   <prefix>_KOKKOS_PRECISION (DOUBLE_DOUBLE, SINGLE_DOUBLE, SINGLE_SINGLE),
#   <prefix>_KOKKOS_LAYOUT (LEGACY, DEFAULT), <prefix>_KOKKOS_VERSION (5.2.2),
#   <prefix>_CXX_STANDARD (17, 20, ...), <prefix>_INTEGERS (LAMMPS_SMALLBIG, ...),
#   <prefix>_OPENMP, <prefix>_MPI (ON/OFF: compiled with OpenMP, with an MPI library not the STUBS)
function(demc_parse_lmp_help text prefix)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(version "")
  set(packages "")
  set(backends "")
  set(precision "")
  set(layout "")
  set(kversion "")
  set(standard "")
  set(integers "")
  set(openmp OFF)
  set(mpi OFF)
  set(in_packages FALSE)
  foreach(line IN LISTS lines)
    if(in_packages)
      string(STRIP "${line}" stripped)
      if(stripped STREQUAL "" AND packages)
        set(in_packages FALSE)
      elseif(NOT stripped STREQUAL "")
        string(REGEX REPLACE " +" ";" words "${stripped}")
        list(APPEND packages ${words})
      endif()
    elseif(line MATCHES "^Large-scale Atomic/Molecular Massively Parallel Simulator - (.*)$")
      demc_lammps_version_number("${CMAKE_MATCH_1}" version)
    elseif(line MATCHES "^KOKKOS package API:(.*)$")
      string(TOUPPER "${CMAKE_MATCH_1}" apis)
      string(REGEX MATCHALL "[A-Z]+" backends "${apis}")
      list(TRANSFORM backends REPLACE "^PTHREADS$" "THREADS")
      list(SORT backends)
    elseif(line MATCHES "^KOKKOS package precision: *([a-z]+)")
      set(map_double DOUBLE_DOUBLE)
      set(map_mixed SINGLE_DOUBLE)
      set(map_single SINGLE_SINGLE)
      set(precision ${map_${CMAKE_MATCH_1}})
    elseif(line MATCHES "^KOKKOS package view layout: *([a-z]+)")
      string(TOUPPER "${CMAKE_MATCH_1}" layout)
    elseif(line MATCHES "^Kokkos library version: *([0-9.]+)")
      set(kversion "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^C\\+\\+ standard: *C\\+\\+([0-9]+)")
      set(standard "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^Compiler: .* with .*OpenMP" AND NOT line MATCHES "OpenMP not enabled")
      set(openmp ON)
    elseif(line MATCHES "^MPI v[0-9.]+: ")
      if(NOT line MATCHES "MPI STUBS")
        set(mpi ON)
      endif()
    elseif(line MATCHES "^-D(LAMMPS_(SMALLBIG|BIGBIG|SMALLSMALL))")
      set(integers "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^Installed packages:")
      set(in_packages TRUE)
    endif()
  endforeach()
  set(${prefix}_VERSION "${version}" PARENT_SCOPE)
  set(${prefix}_PACKAGES "${packages}" PARENT_SCOPE)
  set(${prefix}_KOKKOS_BACKENDS "${backends}" PARENT_SCOPE)
  set(${prefix}_KOKKOS_PRECISION "${precision}" PARENT_SCOPE)
  set(${prefix}_KOKKOS_LAYOUT "${layout}" PARENT_SCOPE)
  set(${prefix}_KOKKOS_VERSION "${kversion}" PARENT_SCOPE)
  set(${prefix}_CXX_STANDARD "${standard}" PARENT_SCOPE)
  set(${prefix}_INTEGERS "${integers}" PARENT_SCOPE)
  set(${prefix}_OPENMP ${openmp} PARENT_SCOPE)
  set(${prefix}_MPI ${mpi} PARENT_SCOPE)
endfunction()
