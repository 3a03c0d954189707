# SPDX-License-Identifier: BSD-3-Clause
# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) once the components are staged:
# each package gets /usr/share/doc/PKG/copyright and changelog.Debian.gz, and
# its man pages compressed, as Debian policy wants.
string(TIMESTAMP _rw_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
foreach(_c IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${_c} _C)
  set(_pkg ${CPACK_DEBIAN_${_C}_PACKAGE_NAME})
  set(_root ${CPACK_TEMPORARY_DIRECTORY}/${_c}${CPACK_PACKAGING_INSTALL_PREFIX})
  if(NOT IS_DIRECTORY ${CPACK_TEMPORARY_DIRECTORY}/${_c})
    message(FATAL_ERROR "PackagingPreBuild: no staging folder for component ${_c}")
  endif()
  set(_doc ${_root}/share/doc/${_pkg})
  file(MAKE_DIRECTORY ${_doc})
  file(COPY_FILE ${CPACK_RW_SOURCE_DIR}/packaging/copyright.in ${_doc}/copyright)
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
