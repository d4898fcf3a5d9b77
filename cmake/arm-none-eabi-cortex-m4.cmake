# SPDX-License-Identifier: MIT
# Cortex-M4 with GNU Arm (arm-none-eabi-gcc), e.g.
#   cmake -B b -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-cortex-m4.cmake [-DMOTEBOX_FLOAT_ABI=hard]
# The library (and a consumer configured with this file) gets -mcpu=cortex-m4 -mthumb
# and the float ABI: soft (the default, no FPU), softfp, or hard (-mfpu=fpv4-sp-d16, the
# Cortex-M4F / STM32F4 default). The library has no floating point; the ABI only has to
# match the application's, which the linker checks (objects' build attributes).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_RANLIB arm-none-eabi-ranlib)
# No C library startup to link a test program against: try_compile builds archives.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MOTEBOX_FLOAT_ABI)

if(NOT MOTEBOX_FLOAT_ABI)
  set(MOTEBOX_FLOAT_ABI soft)
endif()
set(_mb_m4 "-mcpu=cortex-m4 -mthumb")
if(MOTEBOX_FLOAT_ABI STREQUAL "hard" OR MOTEBOX_FLOAT_ABI STREQUAL "softfp")
  string(APPEND _mb_m4 " -mfloat-abi=${MOTEBOX_FLOAT_ABI} -mfpu=fpv4-sp-d16")
elseif(NOT MOTEBOX_FLOAT_ABI STREQUAL "soft")
  message(FATAL_ERROR "MOTEBOX_FLOAT_ABI=${MOTEBOX_FLOAT_ABI}: use soft, softfp or hard")
endif()
set(CMAKE_C_FLAGS_INIT "${_mb_m4}")
set(CMAKE_ASM_FLAGS_INIT "${_mb_m4}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_mb_m4}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# motebox's CMakeLists.txt: the chip's assembly unless MOTEBOX_ARCH says otherwise.
set(MOTEBOX_DEFAULT_ARCH cortex-m4)
