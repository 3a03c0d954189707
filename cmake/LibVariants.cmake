# SPDX-License-Identifier: BSD-3-Clause
# rw_lib_variants(<name> SOURCES <files...> [PROTO PUBLIC|PRIVATE]
#                 [DEPS <our libraries...>] [LIBS <other libraries...>])
#
# A library of lib/ that the tools and the Wireshark plugin both link, built
# in each variant the plugin needs:
#   <name>        the ordinary one, for the tools;
#   <name>_plain  in a sanitizer build (RW_SANITIZED), a copy without
#                 sanitizers for the plugin (tshark is not sanitized, so a
#                 sanitized plugin cannot load into it); otherwise an alias
#                 of <name>;
#   <name>_asan   with ASan and UBSan, for the sanitized plugin the tests
#                 load (rocewire_plugin_asan), when librocewire has that
#                 variant and the tests are built.
# PROTO links librocewire's matching variant (rocewire::rocewire,
# rocewire::plain, rocewire::asan) with that visibility; without PROTO the
# _asan copy still takes rocewire::asan's flags (PRIVATE). DEPS are lib/
# libraries built by this function: each variant links their same variant.
# LIBS are linked PRIVATE as given. Every variant is position-independent
# (the plugin is a shared module) with the calling folder as its public
# include directory. <name>_TARGETS, set in the caller, lists the real
# libraries made (not the alias), for settings a caller adds to all.
function(rw_lib_variants name)
  cmake_parse_arguments(V "" "PROTO" "SOURCES;DEPS;LIBS" ${ARGN})
  set(variants rocewire)
  if(RW_SANITIZED)
    list(APPEND variants plain)
  endif()
  if(TARGET rocewire_asan AND ROCEWIRE_BUILD_TESTS)
    list(APPEND variants asan)
  endif()
  set(made "")
  foreach(v IN LISTS variants)
    set(proto rocewire::${v}) # librocewire's variant of that name
    set(sfx "")
    if(NOT v STREQUAL "rocewire")
      set(sfx _${v})
    endif()
    set(lib ${name}${sfx})
    add_library(${lib} STATIC ${V_SOURCES})
    foreach(d IN LISTS V_DEPS)
      target_link_libraries(${lib} PUBLIC ${d}${sfx})
    endforeach()
    if(V_PROTO)
      target_link_libraries(${lib} ${V_PROTO} ${proto})
    elseif(sfx STREQUAL "_asan")
      target_link_libraries(${lib} PRIVATE ${proto}) # for its flags
    endif()
    if(V_LIBS)
      target_link_libraries(${lib} PRIVATE ${V_LIBS})
    endif()
    if(sfx STREQUAL "_plain")
      target_compile_options(${lib} PRIVATE -fno-sanitize=all)
    endif()
    target_include_directories(${lib} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    list(APPEND made ${lib})
  endforeach()
  if(NOT RW_SANITIZED)
    add_library(${name}_plain ALIAS ${name})
  endif()
  set(${name}_TARGETS ${made} PARENT_SCOPE)
endfunction()
