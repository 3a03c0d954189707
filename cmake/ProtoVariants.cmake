# SPDX-License-Identifier: BSD-3-Clause
# rw_proto_variants(NAME <lib> ASAN_ALIAS <alias> SOURCES <files...> LIBS <libs...>)
#
# A small library of a tool's that parses untrusted input with no I/O (gen/'s
# scenario parser, replay/'s options and filters), built over each variant of
# librocewire that needs it:
#   <lib>       over rocewire::rocewire, for the tool and its unit tests;
#   <lib>_asan  over rocewire::asan (whose ASan/UBSan flags reach these files
#               too), for the fuzzers' regression replay; <alias> names it,
#               or <lib> itself in a build without the ASan variant;
#   <lib>_fuzz  over rocewire::fuzz, for the libFuzzer targets of an
#               ROCEWIRE_FUZZ build.
# SOURCES are relative to the calling folder, whose folder is also the
# public include directory.
function(rw_proto_variants)
  cmake_parse_arguments(V "" "NAME;ASAN_ALIAS" "SOURCES;LIBS" ${ARGN})
  set(variants "${V_NAME}=rocewire::rocewire")
  if(TARGET rocewire_asan)
    list(APPEND variants "${V_NAME}_asan=rocewire::asan")
  endif()
  if(ROCEWIRE_FUZZ)
    list(APPEND variants "${V_NAME}_fuzz=rocewire::fuzz")
  endif()
  foreach(v IN LISTS variants)
    string(REPLACE "=" ";" v "${v}")
    list(GET v 0 lib)
    list(GET v 1 proto)
    add_library(${lib} STATIC ${V_SOURCES})
    target_include_directories(${lib} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(${lib} PUBLIC ${proto} ${V_LIBS})
  endforeach()
  if(TARGET ${V_NAME}_asan)
    add_library(${V_ASAN_ALIAS} ALIAS ${V_NAME}_asan)
  else()
    add_library(${V_ASAN_ALIAS} ALIAS ${V_NAME})
  endif()
endfunction()
