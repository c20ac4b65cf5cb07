# LAMMPSPluginKokkos.cmake (included by LAMMPSPlugin.cmake when LAMMPS has KOKKOS): compile the
# plugin against the very Kokkos LAMMPS was compiled with, and refuse to configure when it
# cannot be the same one.
#
# Where LAMMPS's Kokkos is, by the way LAMMPS was built:
#   BUNDLED     (EXTERNAL_KOKKOS off, the default: lib/kokkos of the LAMMPS source tree) and
#   DOWNLOADED  (DOWNLOAD_KOKKOS on): Kokkos is a static library inside liblammps. The plugin
#               takes the Kokkos include folders of LAMMPS's own compile line (lib/kokkos/*/src
#               and the configuration header in the build folder) and links nothing more: the
#               Kokkos functions it calls are liblammps's. No other Kokkos is searched for, so
#               none found on the system (Kokkos_DIR, CMAKE_PREFIX_PATH) can slip in.
#   EXTERNAL    (EXTERNAL_KOKKOS on): an installed Kokkos package, shared or static. The plugin
#               finds the same package (LAMMPS's Kokkos_DIR unless Kokkos_DIR is given) and
#               links it when shared (one copy in the process); a static one is used for
#               compiling only, its functions again come from liblammps.
#   INSTALLED   (an installed LAMMPS): the Kokkos package at Kokkos_DIR or on CMAKE_PREFIX_PATH
#               (a bundled Kokkos is installed with LAMMPS into the same prefix).
# The check: the KokkosCore_config.h LAMMPS was compiled with (from its compile line) and the
# one the plugin will include must agree in version, back ends and View implementation
# (LAMMPS's bundled Kokkos turns the legacy View on; Kokkos' own default is the mdspan View).
# For an installed LAMMPS, version and back ends are compared with what its lmp reports.

target_include_directories(lammps_plugin_api SYSTEM INTERFACE "${_lmp_src}/KOKKOS")

set(_lmp_kokkos_dirs "")
foreach(_dir IN LISTS _lmp_includes)
  file(GLOB _kokkos_headers LIST_DIRECTORIES false "${_dir}/Kokkos*.hpp" "${_dir}/KokkosCore_config.h")
  if(_kokkos_headers)
    list(APPEND _lmp_kokkos_dirs "${_dir}")
  endif()
endforeach()
_lammps_find_config_header("${_lmp_kokkos_dirs}" _lmp_kokkos_header)

# Kokkos' usage requirements without its library (CMake 3.27: $<COMPILE_ONLY:...>), or, with
# an older CMake, its include folders and compile options copied from the imported target.
function(_demc_kokkos_compile_only target)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.27)
    target_link_libraries(lammps_plugin_api INTERFACE "$<COMPILE_ONLY:${target}>")
  else()
    foreach(t ${target} Kokkos::kokkoscore Kokkos::kokkoscontainers Kokkos::kokkosalgorithms)
      if(TARGET ${t})
        foreach(prop INCLUDE_DIRECTORIES COMPILE_OPTIONS COMPILE_DEFINITIONS)
          get_target_property(value ${t} INTERFACE_${prop})
          if(value)
            string(TOLOWER "${prop}" kind)
            if(kind STREQUAL "include_directories")
              target_include_directories(lammps_plugin_api SYSTEM INTERFACE ${value})
            elseif(kind STREQUAL "compile_options")
              target_compile_options(lammps_plugin_api INTERFACE ${value})
            else()
              target_compile_definitions(lammps_plugin_api INTERFACE ${value})
            endif()
          endif()
        endforeach()
      endif()
    endforeach()
  endif()
endfunction()

# the include folders of an imported Kokkos (to find its configuration header)
function(_demc_kokkos_package_dirs out)
  set(dirs "")
  foreach(t Kokkos::kokkoscore Kokkos::kokkos)
    if(TARGET ${t})
      get_target_property(d ${t} INTERFACE_INCLUDE_DIRECTORIES)
      if(d)
        list(APPEND dirs ${d})
      endif()
    endif()
  endforeach()
  set(${out} "${dirs}" PARENT_SCOPE)
endfunction()

function(_demc_use_kokkos_package)
  get_target_property(type Kokkos::kokkoscore TYPE)
  if(type STREQUAL "SHARED_LIBRARY")
    target_link_libraries(lammps_plugin_api INTERFACE Kokkos::kokkos)
  else()
    _demc_kokkos_compile_only(Kokkos::kokkos)
  endif()
endfunction()

set(_plugin_kokkos_header "")
if(_lmp_kokkos_source STREQUAL "EXTERNAL")
  if(NOT Kokkos_DIR AND LMPCACHE_Kokkos_DIR)
    set(Kokkos_DIR "${LMPCACHE_Kokkos_DIR}" CACHE PATH "The Kokkos package LAMMPS was built with")
  endif()
  find_package(Kokkos CONFIG REQUIRED)
  _demc_use_kokkos_package()
  _demc_kokkos_package_dirs(_plugin_kokkos_dirs)
  _lammps_find_config_header("${_plugin_kokkos_dirs}" _plugin_kokkos_header)
  message(STATUS "Kokkos: the external package LAMMPS uses, ${Kokkos_DIR}")
elseif(_lmp_kokkos_source STREQUAL "INSTALLED")
  find_package(Kokkos CONFIG QUIET HINTS "${LAMMPS_DIR}/../Kokkos")
  if(NOT Kokkos_FOUND)
    message(FATAL_ERROR "the installed LAMMPS has the KOKKOS package (Kokkos "
      "${LMPHELP_KOKKOS_VERSION}) but no Kokkos package was found to compile the Kokkos styles "
      "with: name the one LAMMPS was built with by -D Kokkos_DIR=<its lib/cmake/Kokkos> (LAMMPS's "
      "bundled Kokkos is installed with LAMMPS), or configure against the LAMMPS build folder "
      "(-D LAMMPS_BUILD_DIR=...), or leave the Kokkos styles out with -D DEMC_KOKKOS_STYLES=off")
  endif()
  _demc_use_kokkos_package()
  _demc_kokkos_package_dirs(_plugin_kokkos_dirs)
  _lammps_find_config_header("${_plugin_kokkos_dirs}" _plugin_kokkos_header)
  message(STATUS "Kokkos: ${Kokkos_DIR}")
else()
  if(NOT _lmp_kokkos_dirs OR NOT _lmp_kokkos_header)
    message(FATAL_ERROR "LAMMPS in ${LAMMPS_BUILD_DIR} has the KOKKOS package with its "
      "${_lmp_kokkos_source} Kokkos, but its compile line names no folder with KokkosCore_config.h "
      "(include folders: ${_lmp_includes}); build LAMMPS first")
  endif()
  target_include_directories(lammps_plugin_api SYSTEM INTERFACE ${_lmp_kokkos_dirs})
  set(_plugin_kokkos_header "${_lmp_kokkos_header}")
  message(STATUS "Kokkos: LAMMPS's ${_lmp_kokkos_source} Kokkos, linked into liblammps "
    "(${_lmp_kokkos_dirs})")
endif()

# --- the check ------------------------------------------------------------------------------
demc_kokkos_read_config("${_plugin_kokkos_header}" PLUGIN_KOKKOS)
if(NOT PLUGIN_KOKKOS_FOUND)
  message(FATAL_ERROR "no KokkosCore_config.h among the Kokkos include folders "
    "(${_plugin_kokkos_dirs}${_lmp_kokkos_dirs}): cannot check that the plugin uses LAMMPS's Kokkos")
endif()
if(_lmp_kokkos_source STREQUAL "INSTALLED")
  # what the installed lmp reports: version and back ends (not the View implementation)
  set(LAMMPS_KOKKOS_VERSION "${LMPHELP_KOKKOS_VERSION}")
  set(LAMMPS_KOKKOS_BACKENDS "${LMPHELP_KOKKOS_BACKENDS}")
  set(LAMMPS_KOKKOS_VIEW "${PLUGIN_KOKKOS_VIEW}")
  set(LAMMPS_KOKKOS_FOUND TRUE)
else()
  demc_kokkos_read_config("${_lmp_kokkos_header}" LAMMPS_KOKKOS)
endif()
if(NOT LAMMPS_KOKKOS_FOUND)
  message(FATAL_ERROR "cannot find the KokkosCore_config.h LAMMPS was compiled with among its "
    "include folders (${_lmp_includes}): cannot check that the plugin uses LAMMPS's Kokkos")
endif()
demc_kokkos_compare(LAMMPS_KOKKOS PLUGIN_KOKKOS _kokkos_diffs)
if(_kokkos_diffs)
  string(REPLACE ";" "\n  " _kokkos_diffs "${_kokkos_diffs}")
  message(FATAL_ERROR "the plugin would be compiled against another Kokkos than LAMMPS's:\n"
    "  ${_kokkos_diffs}\n"
    "LAMMPS's: ${_lmp_kokkos_header}\nthe plugin's: ${_plugin_kokkos_header}\n"
    "Objects shared with liblammps would change layout. Point Kokkos_DIR at the Kokkos LAMMPS was "
    "built with (or configure against LAMMPS's build folder), or leave the Kokkos styles out "
    "with -D DEMC_KOKKOS_STYLES=off.")
endif()
string(REPLACE ";" "+" _kokkos_backends "${LAMMPS_KOKKOS_BACKENDS}")
message(STATUS "Kokkos ${LAMMPS_KOKKOS_VERSION} (${_kokkos_backends}, ${LAMMPS_KOKKOS_VIEW} View): "
  "the same as LAMMPS's")
if(PLUGIN_KOKKOS_CXX_STANDARD AND LAMMPS_CXX_STANDARD LESS PLUGIN_KOKKOS_CXX_STANDARD)
  set(LAMMPS_CXX_STANDARD ${PLUGIN_KOKKOS_CXX_STANDARD})
endif()
set(_kokkos_devices "")
foreach(_space CUDA HIP SYCL OPENMPTARGET OPENACC)
  if(_space IN_LIST LAMMPS_KOKKOS_BACKENDS)
    list(APPEND _kokkos_devices ${_space})
  endif()
endforeach()
if(_kokkos_devices AND NOT _lmp_kokkos_source STREQUAL "EXTERNAL" AND NOT _lmp_kokkos_source STREQUAL "INSTALLED"
   AND LMPCACHE_CMAKE_CXX_COMPILER AND NOT CMAKE_CXX_COMPILER STREQUAL LMPCACHE_CMAKE_CXX_COMPILER)
  message(FATAL_ERROR "LAMMPS's Kokkos has the ${_kokkos_devices} back end: compile the plugin with "
    "the compiler LAMMPS used, -D CMAKE_CXX_COMPILER=${LMPCACHE_CMAKE_CXX_COMPILER}")
endif()

# --- KOKKOS_LAYOUT: do the Kokkos styles fit? -------------------------------------------------
demc_kokkos_styles_fit("${_lmp_defs}" "${LAMMPS_KOKKOS_BACKENDS}" LAMMPS_KOKKOS_STYLES_FIT _fit_reason)
if(NOT LAMMPS_KOKKOS_STYLES_FIT)
  message(WARNING "the Kokkos styles are not built: ${_fit_reason}")
endif()
