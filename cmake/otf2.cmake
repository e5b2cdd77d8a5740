# Finds OTF2 and defines the imported target ftsim::otf2.
# Order: pkg-config `otf2` (Debian's libopen-trace-format2-dev ships otf2.pc),
# then `otf2-config --cflags --libs` (a Score-P or source install), then a
# plain find_path/find_library.
pkg_check_modules(OTF2 QUIET IMPORTED_TARGET GLOBAL otf2)
if(OTF2_FOUND)
  add_library(ftsim::otf2 ALIAS PkgConfig::OTF2)
  return()
endif()
add_library(ftsim_otf2_found INTERFACE IMPORTED GLOBAL)
add_library(ftsim::otf2 ALIAS ftsim_otf2_found)
find_program(OTF2_CONFIG otf2-config)
if(OTF2_CONFIG)
  execute_process(COMMAND ${OTF2_CONFIG} --cflags
    OUTPUT_VARIABLE otf2_cflags OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${OTF2_CONFIG} --libs
    OUTPUT_VARIABLE otf2_libs OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(otf2_cflags UNIX_COMMAND "${otf2_cflags}")
  separate_arguments(otf2_libs UNIX_COMMAND "${otf2_libs}")
  target_compile_options(ftsim_otf2_found INTERFACE ${otf2_cflags})
  target_link_libraries(ftsim_otf2_found INTERFACE ${otf2_libs})
  return()
endif()
find_path(OTF2_INCLUDE_DIR otf2/otf2.h)
find_library(OTF2_LIBRARY open-trace-format2)
if(NOT OTF2_INCLUDE_DIR OR NOT OTF2_LIBRARY)
  message(FATAL_ERROR "OTF2 not found: install the Debian packages "
    "'libopen-trace-format2-dev otf2-tools' (scripts/setup.sh does)")
endif()
target_include_directories(ftsim_otf2_found INTERFACE ${OTF2_INCLUDE_DIR})
target_link_libraries(ftsim_otf2_found INTERFACE ${OTF2_LIBRARY})
