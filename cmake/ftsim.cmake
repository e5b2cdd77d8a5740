# Helpers that build one MPI program for SMPI and for a real MPI.

# ftsim_warnings(target): the project's warning set on a target we own.
function(ftsim_warnings tgt)
  target_compile_options(${tgt} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${FTSIM_WARNINGS}>)
endfunction()

# ftsim_pure_target(target): warnings, plus ASan + UBSan when FTSIM_SANITIZE,
# for code that links neither MPI nor SimGrid (cores, parsers, CLI, units).
function(ftsim_pure_target tgt)
  ftsim_warnings(${tgt})
  if(FTSIM_SANITIZE)
    target_compile_options(${tgt} PRIVATE -fsanitize=address,undefined
      -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${tgt} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# ftsim_smpi_flags(target): compile a target the way smpicc does
# (SMPI's mpi.h, smpi_helpers.h forced in, position-independent code).
function(ftsim_smpi_flags tgt)
  target_include_directories(${tgt} SYSTEM PRIVATE ${SMPI_INCLUDE_DIR}/smpi)
  target_compile_options(${tgt} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-include ${SMPI_INCLUDE_DIR}/smpi/smpi_helpers.h>
    $<$<COMPILE_LANGUAGE:Fortran>:-ff2c -fno-second-underscore>)
  target_compile_definitions(${tgt} PRIVATE FTSIM_SMPI=1)
  set_target_properties(${tgt} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# ftsim_mpi_program(NAME name SOURCES ... [LIBS ...] [REAL_LIBS ...] [DIR dir]
#                   [PLAIN])
#   LIBS link every build; REAL_LIBS only the real-MPI one (e.g.
#   MPI::MPI_Fortran, which must stay out of the SMPI module).
#   Builds ${name} twice, linked with ftsim's interposition runtime:
#     <DIR>/smpi/<name>  a module for smpirun (what smpicc would make)
#     <DIR>/real/<name>  an executable for mpirun (reference mode)
#   and with PLAIN a third time without the runtime (ft.h only):
#     <DIR>/plain/<name> a module for smpirun, the benchmark's baseline.
#   Targets are named ${name}-smpi, ${name}-real and ${name}-plain.
function(ftsim_mpi_program)
  cmake_parse_arguments(P "PLAIN" "NAME;DIR" "SOURCES;LIBS;REAL_LIBS" ${ARGN})
  if(FTSIM_SANITIZE) # the sanitizer build covers the pure code only
    return()
  endif()
  if(NOT P_DIR)
    set(P_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  add_library(${P_NAME}-smpi MODULE ${P_SOURCES})
  ftsim_smpi_flags(${P_NAME}-smpi)
  ftsim_warnings(${P_NAME}-smpi)
  # The runtime is a shared library (sim/CMakeLists.txt,
  # ftsim_runtime_shared): SMPI loads it once for all ranks, where the
  # module is copied per rank. It comes before SimGrid among the module's
  # libraries, so that its MPI functions are the ones SMPI's dlopen
  # (RTLD_DEEPBIND) finds for the module; ft_compute stays in the module
  # (ftsim_compute_smpi, see there). The --wrap options of the malloc
  # intercepts are ftsim_runtime_smpi's; --no-as-needed: SMPI's mpi.h
  # declares every MPI function weak, and a library that only weak
  # references need would otherwise be dropped.
  target_link_libraries(${P_NAME}-smpi PRIVATE ${P_LIBS} ftsim_runtime_shared
    ftsim_compute_smpi ${SIMGRID_LIBRARY} m)
  target_link_options(${P_NAME}-smpi PRIVATE LINKER:--no-as-needed
    $<TARGET_PROPERTY:ftsim_runtime_smpi,INTERFACE_LINK_OPTIONS>)
  # Without debug sections (-Wl,-S; the symbols stay, for perf and
  # backtraces): SMPI's dlopen privatization copies the module once per
  # rank (sendfile into smpi/tmpdir), 2.4 MB a copy with them, 0.5 MB
  # without (sim/replay/CMakeLists.txt does the same for the replay).
  target_link_options(${P_NAME}-smpi PRIVATE -Wl,-z,defs -Wl,-S)
  set_target_properties(${P_NAME}-smpi PROPERTIES PREFIX "" SUFFIX ""
    OUTPUT_NAME ${P_NAME} LIBRARY_OUTPUT_DIRECTORY ${P_DIR}/smpi)
  if(P_PLAIN)
    add_library(${P_NAME}-plain MODULE ${P_SOURCES})
    ftsim_smpi_flags(${P_NAME}-plain)
    ftsim_warnings(${P_NAME}-plain)
    target_link_libraries(${P_NAME}-plain PRIVATE ${P_LIBS} ftsim_app_api_plain
      ${SIMGRID_LIBRARY} m)
    target_link_options(${P_NAME}-plain PRIVATE -Wl,-z,defs -Wl,-S)
    set_target_properties(${P_NAME}-plain PROPERTIES PREFIX "" SUFFIX ""
      OUTPUT_NAME ${P_NAME} LIBRARY_OUTPUT_DIRECTORY ${P_DIR}/plain)
  endif()
  if(FTSIM_REAL_MPI)
    add_executable(${P_NAME}-real ${P_SOURCES})
    ftsim_warnings(${P_NAME}-real)
    target_link_libraries(${P_NAME}-real PRIVATE ${P_LIBS} ${P_REAL_LIBS}
      $<LINK_LIBRARY:WHOLE_ARCHIVE,ftsim_runtime_real> MPI::MPI_C m)
    set_target_properties(${P_NAME}-real PROPERTIES OUTPUT_NAME ${P_NAME}
      RUNTIME_OUTPUT_DIRECTORY ${P_DIR}/real)
  endif()
endfunction()

# ftsim_criterion_test(NAME name SOURCES ... [LIBS ...] [LABELS ...])
#   Builds a Criterion test binary and registers one ctest entry per test,
#   named suite/name, for every `Test(suite, name` line of the sources (read at
#   configure time; editing a source re-runs cmake). Each entry runs through
#   tests/run_criterion.sh, which fails unless exactly one test ran and passed,
#   so a mistyped filter cannot pass by running nothing.
function(ftsim_criterion_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} PkgConfig::CRITERION)
  ftsim_pure_target(${T_NAME})
  foreach(src IN LISTS T_SOURCES)
    file(STRINGS ${src} lines REGEX "^(Test|ParameterizedTest)\\(")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[A-Za-z]*Test\\(([^, ]+), *([^, )]+).*" "\\1/\\2" id "${line}")
      add_test(NAME ${id} COMMAND sh ${PROJECT_SOURCE_DIR}/tests/run_criterion.sh
        $<TARGET_FILE:${T_NAME}> ${id})
      set_tests_properties(${id} PROPERTIES LABELS "unit;${T_LABELS}")
    endforeach()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${T_SOURCES})
endfunction()
