# What a user's own MPI program builds with (README.md, "Your own program"):
# compiler wrappers, ftsim's runtime as one archive per MPI flavour and, for
# SMPI, as the shared library that users' programs link by default
# (sim/CMakeLists.txt, ftsim_runtime_shared), ft.h, pkg-config files and a
# CMake package. The build tree holds them in the
# layout `cmake --install build --prefix P` gives P, so the same relocatable
# files serve both:
#   bin/ftsimcc ftsimcxx ftsimff ftsimf90
#   lib/libftsim_runtime_shared.so lib/libftsim_smpi.a lib/libftsim_real.a
#   include/ftsim/ft.h
#   lib/pkgconfig/ftsim.pc ftsim-static.pc ftsim-real.pc
#   lib/cmake/ftsim/ftsim-config.cmake ftsim-config-version.cmake
if(FTSIM_SANITIZE) # the sanitizer build has no runtime (ftsim_pure_target)
  return()
endif()

set(pkg_src ${PROJECT_SOURCE_DIR}/cmake/package)
set(pkg_out ${CMAKE_BINARY_DIR})

# ftsim_package_archive(name lib...): one archive of the objects of the
# libraries, in the package's lib/.
function(ftsim_package_archive name)
  set(objects "")
  foreach(lib IN LISTS ARGN)
    list(APPEND objects $<TARGET_OBJECTS:${lib}>)
  endforeach()
  add_library(${name} STATIC ${objects})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C
    ARCHIVE_OUTPUT_DIRECTORY ${pkg_out}/lib)
  install(TARGETS ${name} ARCHIVE DESTINATION lib)
endfunction()
# The runtime with every library it needs from this project, linked whole:
# a user's link line names one file. ft_compute alone, linked after it and
# NOT whole: the linker copies it into a program only when the program
# calls it, which is how `ftsim run --compute auto` tells modelled from
# measured computation.
set(runtime_deps ftsim_options ftsim_protocols ftsim_image ftsim_rtrace_model ftsim_scenario
  ftsim_failure_trace ftsim_errmsg ftsim_anycall_wire ftsim_coll_select)
ftsim_package_archive(ftsim_smpi ftsim_runtime_smpi ${runtime_deps})
ftsim_package_archive(ftsim_compute ftsim_compute_smpi)
if(FTSIM_REAL_MPI)
  ftsim_package_archive(ftsim_real ftsim_runtime_real ${runtime_deps})
  ftsim_package_archive(ftsim_compute_real_pkg ftsim_compute_real)
  set_target_properties(ftsim_compute_real_pkg PROPERTIES
    OUTPUT_NAME ftsim_compute_real)
endif()

configure_file(${PROJECT_SOURCE_DIR}/sim/ft.h ${pkg_out}/include/ftsim/ft.h COPYONLY)
install(FILES ${pkg_out}/include/ftsim/ft.h DESTINATION include/ftsim)

# Paths the generated files name (system packages, not this tree).
set(FTSIM_SMPI_INCLUDE ${SMPI_INCLUDE_DIR}/smpi)
set(FTSIM_SIMGRID_LIB ${SIMGRID_LIBRARY})
set(FTSIM_ZLIB_LIB -lz)
# What a program linked with the SMPI runtime must be linked with (the
# runtime's INTERFACE_LINK_OPTIONS, e.g. the --wrap of SMPI's malloc
# intercepts for runtime/app_heap.c): for the wrappers and ftsim.pc as -Wl,
# flags, for the CMake package as they are.
get_target_property(smpi_link_options ftsim_runtime_smpi INTERFACE_LINK_OPTIONS)
if(NOT smpi_link_options)
  set(smpi_link_options "")
endif()
set(FTSIM_SMPI_LINK_OPTIONS_CMAKE "${smpi_link_options}")
list(TRANSFORM smpi_link_options REPLACE "^LINKER:" "-Wl,")
list(JOIN smpi_link_options " " FTSIM_SMPI_LINK_OPTIONS)

# ftsim_wrapper(name language compiler real-compiler)
function(ftsim_wrapper name lang compiler real)
  set(FTSIM_WRAPPER ${name})
  set(FTSIM_WRAPPER_LANG ${lang})
  set(FTSIM_WRAPPER_COMPILER ${compiler})
  set(FTSIM_WRAPPER_REAL ${real})
  configure_file(${pkg_src}/ftsim-wrapper.in ${pkg_out}/bin/${name} @ONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  install(PROGRAMS ${pkg_out}/bin/${name} DESTINATION bin)
endfunction()
set(real_c "")
set(real_cxx "")
set(real_f "")
if(FTSIM_REAL_MPI)
  set(real_c ${MPI_C_COMPILER})
  set(real_cxx ${MPI_CXX_COMPILER})
  set(real_f ${MPI_Fortran_COMPILER})
endif()
ftsim_wrapper(ftsimcc C ${CMAKE_C_COMPILER} "${real_c}")
ftsim_wrapper(ftsimcxx C++ ${CMAKE_CXX_COMPILER} "${real_cxx}")
ftsim_wrapper(ftsimff "Fortran 77" ${CMAKE_Fortran_COMPILER} "${real_f}")
ftsim_wrapper(ftsimf90 "Fortran 90" ${CMAKE_Fortran_COMPILER} "${real_f}")

foreach(pc ftsim ftsim-static)
  configure_file(${pkg_src}/${pc}.pc.in ${pkg_out}/lib/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${pkg_out}/lib/pkgconfig/${pc}.pc DESTINATION lib/pkgconfig)
endforeach()
if(FTSIM_REAL_MPI)
  configure_file(${pkg_src}/ftsim-real.pc.in ${pkg_out}/lib/pkgconfig/ftsim-real.pc @ONLY)
  install(FILES ${pkg_out}/lib/pkgconfig/ftsim-real.pc DESTINATION lib/pkgconfig)
endif()

include(CMakePackageConfigHelpers)
configure_file(${pkg_src}/ftsim-config.cmake.in
  ${pkg_out}/lib/cmake/ftsim/ftsim-config.cmake @ONLY)
write_basic_package_version_file(
  ${pkg_out}/lib/cmake/ftsim/ftsim-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${pkg_out}/lib/cmake/ftsim/ftsim-config.cmake
  ${pkg_out}/lib/cmake/ftsim/ftsim-config-version.cmake
  DESTINATION lib/cmake/ftsim)
