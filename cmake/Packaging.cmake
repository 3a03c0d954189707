# SPDX-License-Identifier: BSD-3-Clause
# Debian packages with CPack (cpack -G DEB in the build folder, or
# scripts/package.sh), one a component:
#   lib       librocewire0               the shared library
#   dev       librocewire-dev            headers, static library, pkg-config file
#   tools     rocewire                   the command-line tools, man pages, completion
#   wireshark rocewire-wireshark-plugin  the plugin (only when it was built)
# Dependencies come from dpkg-shlibdeps. cmake/PackagingPreBuild.cmake adds
# what Debian wants in every package (copyright, changelog, compressed man
# pages) to the staging folders.

# Bash completion: one script, under each tool's name (bash-completion
# loads completions/TOOL when TOOL is first completed).
foreach(_rw_tool rocewire-cap rocewire-gen rocewire-replay rocewire-verbs)
  if(TARGET ${_rw_tool})
    list(APPEND _rw_tools ${_rw_tool})
    install(FILES ${PROJECT_SOURCE_DIR}/packaging/rocewire.bash-completion
      DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ${_rw_tool}
      COMPONENT tools)
  endif()
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)

set(CPACK_PACKAGE_NAME rocewire)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR rocewire)
# Maintainer: the project as a role, never a person. Overridden by the cache
# variable (cmake -DROCEWIRE_DEB_MAINTAINER="Name <address>"; it stays with
# the build folder until set again), or by the environment's
# ROCEWIRE_DEB_MAINTAINER of scripts/package.sh, which sets the cache
# variable, or resets it to this default, on every run.
set(_rw_maintainer "rocewire maintainers <rocewire-maintainers@lists.invalid>")
set(ROCEWIRE_DEB_MAINTAINER "${_rw_maintainer}" CACHE STRING
  "Maintainer field of the Debian packages (default: the project's role address)")
# A folder configured before holds the old placeholder in its cache.
if(ROCEWIRE_DEB_MAINTAINER STREQUAL "rocewire maintainers <rocewire@example.org>")
  set_property(CACHE ROCEWIRE_DEB_MAINTAINER PROPERTY VALUE "${_rw_maintainer}")
endif()
set(CPACK_PACKAGE_CONTACT "${ROCEWIRE_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RoCE and InfiniBand at the packet level")
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
  GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")

set(CPACK_COMPONENTS_ALL lib dev tools)
set(CPACK_DEBIAN_LIB_PACKAGE_NAME librocewire0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
# shlibs for the one package with a SONAME (CPack has no per-component
# switch); ldconfig by trigger, as Debian wants.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
file(WRITE ${PROJECT_BINARY_DIR}/packaging/lib/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/packaging/lib/triggers)
set(CPACK_COMPONENT_LIB_DESCRIPTION
  "RoCE and InfiniBand packet library\nlibrocewire encodes and decodes RoCE and InfiniBand headers, computes and\nverifies ICRC and VCRC, and analyses queue pairs. This package holds the\nshared library.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME librocewire-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "RoCE and InfiniBand packet library (development files)\nHeaders, the static library and the pkg-config file of librocewire, which\nencodes, decodes and verifies RoCE and InfiniBand packets.")
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME rocewire)
string(REPLACE ";" ", " _rw_tool_list "${_rw_tools}")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "RoCE and InfiniBand packet tools\nCommand-line tools that capture, decode, verify (ICRC/VCRC), analyse,\ngenerate and replay RoCE and InfiniBand traffic:\n${_rw_tool_list}.")
if(TARGET rocewire-wireshark)
  list(APPEND CPACK_COMPONENTS_ALL wireshark)
  set(CPACK_DEBIAN_WIRESHARK_PACKAGE_NAME rocewire-wireshark-plugin)
  set(CPACK_COMPONENT_WIRESHARK_DESCRIPTION
    "Wireshark plugin for RoCE and InfiniBand analysis\nA Wireshark ${Wireshark_MAJOR_VERSION}.${Wireshark_MINOR_VERSION} plugin that verifies ICRC and VCRC, analyses PSNs\nand congestion notification of RoCE and InfiniBand traffic next to the\nbuilt-in InfiniBand dissector.")
endif()

set(CPACK_RW_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/PackagingPreBuild.cmake)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
include(CPack)
