# cmake -D MODULE_DIR=<repo>/cmake -D WORK_DIR=<scratch> [-D LMP=<lmp> -D VERSION_H=<version.h>]
#       -P test_plugin_checks.cmake
# The configure-time decisions of cmake/LAMMPSPluginChecks.cmake, each case against the answer
# worked out by hand from LAMMPS's and Kokkos' sources: the LAMMPS version and the supported
# range, a Kokkos configuration header, the LAMMPS-vs-plugin Kokkos comparison, whether the
# Kokkos styles fit a KOKKOS_LAYOUT, and the parse of `lmp -h` (a fixed text, and with LMP the
# real output of that lmp against its version.h). Fails at the first wrong answer.
cmake_minimum_required(VERSION 3.20)
include("${MODULE_DIR}/LAMMPSPluginChecks.cmake")
set(checks 0)

function(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    message(FATAL_ERROR "${what}: got '${got}', want '${want}'")
  endif()
  math(EXPR n "${checks} + 1")
  set(checks ${n} PARENT_SCOPE)
endfunction()
function(expect_match what got regex)
  if(NOT "${got}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: '${got}' does not match '${regex}'")
  endif()
  math(EXPR n "${checks} + 1")
  set(checks ${n} PARENT_SCOPE)
endfunction()

# --- LAMMPS versions ----------------------------------------------------------------------------
demc_lammps_version_number("4 Jul 2026" v)
expect("4 Jul 2026" "${v}" 20260704)
demc_lammps_version_number("#define LAMMPS_VERSION \"29 Aug 2024\"" v)
expect("version.h line of 29 Aug 2024" "${v}" 20240829)
demc_lammps_version_number("11 Feb 2026 - Update 2" v)
expect("with an update suffix" "${v}" 20260211)
demc_lammps_version_number("stable" v)
expect("no date" "${v}" "")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(WRITE "${WORK_DIR}/version.h" "#define LAMMPS_VERSION \"2 Dec 2026\"\n")
demc_lammps_version_from_header("${WORK_DIR}/version.h" v)
expect("version.h of 2 Dec 2026" "${v}" 20261202)
demc_lammps_version_from_header("${WORK_DIR}/missing.h" v)
expect("missing version.h" "${v}" "")

demc_lammps_version_status(20260704 s m)
expect("tested release" "${s}" OK)
demc_lammps_version_status(20260211 s m)
expect("older release" "${s}" OLDER)
expect_match("older release message" "${m}" "older than the oldest supported.*DEMC_IGNORE_LAMMPS_VERSION")
demc_lammps_version_status(20261202 s m)
expect("newer release" "${s}" NEWER)
demc_lammps_version_status("" s m)
expect("unreadable version" "${s}" UNKNOWN)

# --- Kokkos configuration headers (the lines as Kokkos 5.2's CMake writes them) -------------------
function(write_config file version view_legacy)   # ARGN: enabled back ends
  math(EXPR major "${version} / 10000")
  math(EXPR minor "${version} / 100 % 100")
  math(EXPR patch "${version} % 100")
  set(text "#define KOKKOS_VERSION ${version}\n#define KOKKOS_VERSION_MAJOR ${major}\n")
  string(APPEND text "#define KOKKOS_VERSION_MINOR ${minor}\n#define KOKKOS_VERSION_PATCH ${patch}\n")
  foreach(space SERIAL OPENMP THREADS CUDA HIP SYCL)
    if(space IN_LIST ARGN)
      string(APPEND text "#define KOKKOS_ENABLE_${space}\n")
    else()
      string(APPEND text "/* #undef KOKKOS_ENABLE_${space} */\n")
    endif()
  endforeach()
  string(APPEND text "#define KOKKOS_ENABLE_CXX20\n/* #undef KOKKOS_ENABLE_CXX23 */\n")
  string(APPEND text "#define KOKKOS_ENABLE_CUDA_LAMBDA_NOT_A_BACKEND\n")
  if(view_legacy)
    string(APPEND text "/* #undef KOKKOS_ENABLE_IMPL_MDSPAN */\n#define KOKKOS_ENABLE_IMPL_VIEW_LEGACY\n")
  else()
    string(APPEND text "#define KOKKOS_ENABLE_IMPL_MDSPAN\n/* #undef KOKKOS_ENABLE_IMPL_VIEW_LEGACY */\n")
  endif()
  file(WRITE "${file}" "${text}")
endfunction()

write_config("${WORK_DIR}/debian.h" 50202 OFF OPENMP)
write_config("${WORK_DIR}/bundled.h" 50202 ON OPENMP)
write_config("${WORK_DIR}/older.h" 50100 OFF OPENMP)
write_config("${WORK_DIR}/gpu.h" 50100 ON SERIAL CUDA)
demc_kokkos_read_config("${WORK_DIR}/debian.h" A)
expect("found" "${A_FOUND}" TRUE)
expect("version" "${A_VERSION}" 5.2.2)
expect("back ends" "${A_BACKENDS}" OPENMP)
expect("View" "${A_VIEW}" MDSPAN)
expect("standard" "${A_CXX_STANDARD}" 20)
demc_kokkos_read_config("${WORK_DIR}/gpu.h" G)
expect("GPU back ends, sorted, not fooled by a longer macro" "${G_BACKENDS}" "CUDA;SERIAL")
expect("legacy View" "${G_VIEW}" LEGACY)
expect("version 5.1.0" "${G_VERSION}" 5.1.0)
demc_kokkos_read_config("${WORK_DIR}/missing.h" M)
expect("missing header" "${M_FOUND}" FALSE)

demc_kokkos_compare(A A d)
expect("the same Kokkos" "${d}" "")
demc_kokkos_read_config("${WORK_DIR}/bundled.h" B)
demc_kokkos_compare(B A d)
list(LENGTH d n)
expect("legacy against mdspan View: one difference" "${n}" 1)
expect_match("legacy against mdspan View" "${d}" "View implementation LEGACY \\(LAMMPS\\) against MDSPAN")
demc_kokkos_read_config("${WORK_DIR}/older.h" O)
demc_kokkos_compare(O A d)
expect_match("5.1.0 against 5.2.2" "${d}" "^version 5.1.0 \\(LAMMPS\\) against 5.2.2 \\(plugin\\)$")
demc_kokkos_compare(G A d)
list(LENGTH d n)
expect("GPU build against Debian's: version, back ends, View" "${n}" 3)
expect_match("back ends in words" "${d}" "back ends CUDA\\+SERIAL \\(LAMMPS\\) against OPENMP")

# --- KOKKOS_LAYOUT -------------------------------------------------------------------------------
set(defs LAMMPS_SMALLBIG LMP_KOKKOS LMP_KOKKOS_DOUBLE_DOUBLE)
demc_kokkos_styles_fit("${defs};LMP_KOKKOS_LAYOUT_LEGACY" "CUDA;SERIAL" fit why)
expect("legacy layout, CUDA" "${fit}" TRUE)
expect("legacy layout, CUDA: no reason" "${why}" "")
demc_kokkos_styles_fit("${defs};LMP_KOKKOS_LAYOUT_DEFAULT" "OPENMP" fit why)
expect("default layout, OpenMP (LayoutRight)" "${fit}" TRUE)
demc_kokkos_styles_fit("${defs};LMP_KOKKOS_LAYOUT_DEFAULT" "SERIAL;THREADS" fit why)
expect("default layout, Serial and Threads" "${fit}" TRUE)
demc_kokkos_styles_fit("${defs};LMP_KOKKOS_LAYOUT_DEFAULT" "CUDA;OPENMP" fit why)
expect("default layout, CUDA (LayoutLeft)" "${fit}" FALSE)
expect_match("default layout, CUDA: why" "${why}" "KOKKOS_LAYOUT=default and Kokkos' CUDA back end.*CPU styles are built.*KOKKOS_LAYOUT=legacy")
demc_kokkos_styles_fit("${defs};LMP_KOKKOS_LAYOUT_DEFAULT" "HIP;SERIAL" fit why)
expect("default layout, HIP" "${fit}" FALSE)
demc_kokkos_styles_fit("${defs};LMP_KOKKOS_LAYOUT_DEFAULT" "SYCL" fit why)
expect("default layout, SYCL" "${fit}" FALSE)
demc_kokkos_styles_fit("${defs}" "HIP" fit why)
expect("no layout definition means legacy (kokkos_type.h)" "${fit}" TRUE)
demc_kokkos_styles_fit("LMP_KOKKOS;LMP_KOKKOS_SINGLE_DOUBLE;LMP_KOKKOS_LAYOUT_LEGACY" "OPENMP" fit why)
expect("mixed precision (gran/jaeger/kk needs double history values)" "${fit}" FALSE)
expect_match("mixed precision: why" "${why}" "KOKKOS_PREC=mixed.*CPU styles are built.*KOKKOS_PREC=double")
demc_kokkos_styles_fit("LMP_KOKKOS;LMP_KOKKOS_SINGLE_SINGLE" "CUDA" fit why)
expect("single precision" "${fit}" FALSE)
demc_kokkos_styles_fit("LMP_KOKKOS;LMP_KOKKOS_LAYOUT_LEGACY" "CUDA" fit why)
expect("no precision definition means double (kokkos_type.h)" "${fit}" TRUE)

# --- lmp -h ----------------------------------------------------------------------------------------
set(help "
Large-scale Atomic/Molecular Massively Parallel Simulator - 4 Jul 2026

Usage example: lmp -var t 300 -echo screen -in in.alloy

OS: Linux \"Debian GNU/Linux 13 (trixie)\" 6.1.0 x86_64

Compiler: GNU C++ 14.2.0 with OpenMP 4.5
C++ standard: C++20

MPI v3.1: Open MPI v5.0.7, package: Debian OpenMPI, ident: 5.0.7, repo rev: v5.0.7

Accelerator configuration:

KOKKOS package API: CUDA Serial
KOKKOS package precision: mixed
KOKKOS package view layout: default
Kokkos library version: 5.1.0

Active compile time flags:

-DLAMMPS_GZIP
-DLAMMPS_BIGBIG
sizeof(smallint): 32-bit

Installed packages:

GRANULAR KOKKOS PLUGIN

List of individual style options included in this LAMMPS executable

* Atom styles:

atomic          body
")
demc_parse_lmp_help("${help}" H)
expect("lmp -h: version" "${H_VERSION}" 20260704)
expect("lmp -h: packages" "${H_PACKAGES}" "GRANULAR;KOKKOS;PLUGIN")
expect("lmp -h: back ends" "${H_KOKKOS_BACKENDS}" "CUDA;SERIAL")
expect("lmp -h: precision" "${H_KOKKOS_PRECISION}" SINGLE_DOUBLE)
expect("lmp -h: layout" "${H_KOKKOS_LAYOUT}" DEFAULT)
expect("lmp -h: Kokkos version" "${H_KOKKOS_VERSION}" 5.1.0)
expect("lmp -h: standard" "${H_CXX_STANDARD}" 20)
expect("lmp -h: integers" "${H_INTEGERS}" LAMMPS_BIGBIG)
expect("lmp -h: OpenMP" "${H_OPENMP}" ON)
expect("lmp -h: MPI" "${H_MPI}" ON)
demc_parse_lmp_help("
Compiler: Clang C++ 19.1.7 with OpenMP not enabled
C++ standard: C++17

MPI v1.0: LAMMPS MPI STUBS for LAMMPS version 4 Jul 2026

Installed packages:

GRANULAR PLUGIN
" S)
expect("lmp -h without OpenMP" "${S_OPENMP}" OFF)
expect("lmp -h with the MPI STUBS" "${S_MPI}" OFF)
expect("lmp -h without KOKKOS: no layout" "${S_KOKKOS_LAYOUT}" "")
expect("lmp -h: standard 17" "${S_CXX_STANDARD}" 17)

# the real lmp's output, against its version.h
if(LMP)
  execute_process(COMMAND "${LMP}" -h OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_QUIET TIMEOUT 60)
  expect("${LMP} -h exit code" "${rc}" 0)
  demc_parse_lmp_help("${out}" R)
  demc_lammps_version_from_header("${VERSION_H}" want)
  expect("${LMP} -h: version against version.h" "${R_VERSION}" "${want}")
  expect_match("${LMP} -h: packages" "${R_PACKAGES}" "(^|;)GRANULAR(;|$)")
  if("KOKKOS" IN_LIST R_PACKAGES)
    expect_match("${LMP} -h: Kokkos version" "${R_KOKKOS_VERSION}" "^[0-9]+\\.[0-9]+\\.[0-9]+$")
    expect_match("${LMP} -h: layout" "${R_KOKKOS_LAYOUT}" "^(LEGACY|DEFAULT)$")
    expect_match("${LMP} -h: precision" "${R_KOKKOS_PRECISION}" "^(DOUBLE_DOUBLE|SINGLE_DOUBLE|SINGLE_SINGLE)$")
  endif()
endif()
message(STATUS "${checks} checks passed")
