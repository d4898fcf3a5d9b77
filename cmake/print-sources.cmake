# SPDX-License-Identifier: MIT
# The library's source files for one build, one per line, for build systems that take a
# file list (vendor IDEs, Arduino-style "compile these"):
#   cmake [-DMOTEBOX_ARCH=cortex-m4|msp430x|portable] [-DMOTEBOX_RADIX=NN]
#         [-DMOTEBOX_MSP430_MPY=mpy32|mpy16] -P cmake/print-sources.cmake
# Compile them with -Iinclude -Isrc -DMB_RADIX=NN (msp430x: also -I<board.h folder> and
# -DMB_MSP430_MPY=16 for mpy16; portable on a chip that has a backend: -DMB_PORTABLE).
# Or compile every file of src/ and arch/<chip>/: src/util/backend.h then leaves out the
# same files (README "Add motebox to your firmware").
cmake_minimum_required(VERSION 3.16)
get_filename_component(_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include("${_root}/cmake/MoteboxSources.cmake")
if(NOT MOTEBOX_ARCH)
  set(MOTEBOX_ARCH portable)
endif()
if(NOT MOTEBOX_RADIX)
  if(MOTEBOX_ARCH STREQUAL "cortex-m4")
    set(MOTEBOX_RADIX 32)
  elseif(MOTEBOX_ARCH STREQUAL "msp430x")
    set(MOTEBOX_RADIX 16)
  else()
    set(MOTEBOX_RADIX 64)
  endif()
endif()
set(_config "")
if(MOTEBOX_ARCH STREQUAL "msp430x")
  set(_config mpy32)
  if(MOTEBOX_MSP430_MPY)
    set(_config "${MOTEBOX_MSP430_MPY}")
  endif()
endif()
motebox_sources(_srcs "${_root}" ${MOTEBOX_RADIX} ${MOTEBOX_ARCH} "${_config}")
foreach(f IN LISTS _srcs)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${f}")
endforeach()
