# SPDX-License-Identifier: MIT
# The library's source list and warning flags for CMake, taken from the make fragments
# that the project's own builds use, so there is one source of truth:
#   sources   cmake/lib-sources.make: mk/lib.mk's lib_src (src/*/*.c, the backends of
#             the radix) and mk/arch.mk's arch_src (arch/<chip>/files.mk)
#   warnings  MB_WARN of mk/lib.mk
# Reading the sources needs GNU make at configure time (as the project's own builds do).
# tests/test_packaging.py checks that the archives hold one object per listed source.

find_program(MOTEBOX_MAKE NAMES gmake make DOC "GNU make, to read the source list of mk/lib.mk")

# motebox_sources(OUT ROOT RADIX ARCH CONFIG): OUT = the library's sources, paths relative
# to ROOT, in make's order. ARCH "portable" (or empty): src/ only; CONFIG: the chip's
# configuration (ARCH_SOURCES_<CONFIG>, e.g. the MSP430 multiplier), or empty.
function(motebox_sources out root radix arch config)
  if(NOT MOTEBOX_MAKE)
    message(FATAL_ERROR "GNU make not found: motebox reads its source list from mk/lib.mk "
                        "and arch/<chip>/files.mk with it (set MOTEBOX_MAKE)")
  endif()
  set(args "RADIX=${radix}")
  if(arch AND NOT arch STREQUAL "portable")
    if(NOT EXISTS "${root}/arch/${arch}/files.mk")
      message(FATAL_ERROR "MOTEBOX_ARCH=${arch}: ${root}/arch/${arch}/files.mk not found")
    endif()
    list(APPEND args "CHIP=${arch}" "CONFIG=${config}")
  endif()
  execute_process(COMMAND "${MOTEBOX_MAKE}" -s --no-print-directory -f cmake/lib-sources.make ${args} print
                  WORKING_DIRECTORY "${root}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR err MATCHES "warning")
    message(FATAL_ERROR "reading the source list (make -f cmake/lib-sources.make ${args}):\n${err}")
  endif()
  string(STRIP "${text}" text)
  string(REGEX REPLACE "[\r\n]+" ";" srcs "${text}")
  # Configure again when a file appears or goes, or a list or rule changes.
  if(NOT CMAKE_SCRIPT_MODE_FILE)
    file(GLOB now CONFIGURE_DEPENDS "${root}/src/*/*.c" "${root}/arch/${arch}/*.[cS]")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
      "${root}/mk/lib.mk" "${root}/mk/arch.mk" "${root}/cmake/lib-sources.make")
    if(EXISTS "${root}/arch/${arch}/files.mk")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${root}/arch/${arch}/files.mk")
    endif()
  endif()
  set(${out} "${srcs}" PARENT_SCOPE)
endfunction()

# motebox_make_var(OUT FILE NAME): the words of a one-line `NAME := ...` in a make
# fragment (MB_WARN of mk/lib.mk).
function(motebox_make_var out file name)
  file(STRINGS "${file}" lines REGEX "^${name}[ \t]*:?=")
  if(NOT lines)
    message(FATAL_ERROR "${file}: no ${name} := line")
  endif()
  list(GET lines 0 line)
  string(REGEX REPLACE "^${name}[ \t]*:?=[ \t]*" "" line "${line}")
  string(REGEX REPLACE "[ \t]*#.*$" "" line "${line}")
  separate_arguments(words UNIX_COMMAND "${line}")
  set(${out} "${words}" PARENT_SCOPE)
endfunction()
