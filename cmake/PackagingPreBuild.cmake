# SPDX-License-Identifier: BSD-3-Clause
# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) once the components are staged:
# each package gets /usr/share/doc/PKG/copyright (machine-readable, DEP-5)
# and changelog.Debian.gz, and its man pages compressed, as Debian policy
# wants.
string(TIMESTAMP _rw_date "%a, %d %b %Y %H:%M:%S +0000" UTC)

# The copyright file (DEP-5) is packaging/copyright.in with the holder and
# the BSD-3-Clause text taken from LICENSE, so the two cannot drift apart.
# LICENSE names no year; copyright.in gives the year of first publication
# (the git history's first, 2026), which a notice needs and lintian asks for.
file(READ ${CPACK_RW_SOURCE_DIR}/LICENSE _rw_license)
if(NOT "${_rw_license}" MATCHES "\nCopyright \\(c\\) ([^\n]+)\n")
  message(FATAL_ERROR "PackagingPreBuild: no 'Copyright (c) HOLDER' line in LICENSE")
endif()
set(RW_COPYRIGHT "${CMAKE_MATCH_1}")
string(FIND "${_rw_license}" "Redistribution and use" _at)
if(_at LESS 0)
  message(FATAL_ERROR "PackagingPreBuild: LICENSE holds no BSD-3-Clause conditions")
endif()
string(SUBSTRING "${_rw_license}" ${_at} -1 _text)
string(STRIP "${_text}" _text)
# DEP-5: each line of a licence text indented by one space, an empty line
# written as " .".
string(REGEX REPLACE "\n[ \t]*\n" "\n.\n" _text "${_text}")
string(REPLACE "\n" "\n " _text "${_text}")
set(RW_BSD_3_CLAUSE_TEXT " ${_text}")
file(READ ${CPACK_RW_SOURCE_DIR}/packaging/copyright.in _rw_copyright)
string(CONFIGURE "${_rw_copyright}" _rw_copyright @ONLY)
if("${_rw_copyright}" MATCHES "@[A-Z_]+@")
  message(FATAL_ERROR "PackagingPreBuild: packaging/copyright.in: ${CMAKE_MATCH_0} not filled in")
endif()
foreach(_c IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${_c} _C)
  set(_pkg ${CPACK_DEBIAN_${_C}_PACKAGE_NAME})
  set(_root ${CPACK_TEMPORARY_DIRECTORY}/${_c}${CPACK_PACKAGING_INSTALL_PREFIX})
  if(NOT IS_DIRECTORY ${CPACK_TEMPORARY_DIRECTORY}/${_c})
    message(FATAL_ERROR "PackagingPreBuild: no staging folder for component ${_c}")
  endif()
  set(_doc ${_root}/share/doc/${_pkg})
  file(MAKE_DIRECTORY ${_doc})
  file(WRITE ${_doc}/copyright "${_rw_copyright}")
  file(WRITE ${_doc}/changelog.Debian
    "${_pkg} (${CPACK_PACKAGE_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}) unstable; urgency=medium\n\n"
    "  * Built from the rocewire source tree with cpack -G DEB.\n\n"
    " -- ${CPACK_PACKAGE_CONTACT}  ${_rw_date}\n")
  file(GLOB_RECURSE _gz_these ${_root}/share/man/*.[1-9] ${_doc}/changelog.Debian)
  foreach(_f IN LISTS _gz_these)
    execute_process(COMMAND gzip -n -9 -f ${_f} RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "PackagingPreBuild: gzip ${_f} failed")
    endif()
  endforeach()
  file(GLOB_RECURSE _all LIST_DIRECTORIES true ${CPACK_TEMPORARY_DIRECTORY}/${_c}/*)
  foreach(_f IN LISTS _all)
    if(IS_DIRECTORY ${_f})
      file(CHMOD ${_f} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
        WORLD_READ WORLD_EXECUTE)
    endif()
  endforeach()
endforeach()
