# SPDX-License-Identifier: MIT
# MSP430 / MSP430X with clang --target=msp430 (no -mmcu: clang does not know the
# FR5969; /work/shared facts: multiplies become __mspabi_* calls the board provides),
# llvm-ar, ld.lld -m msp430elf for firmware. E.g.
#   cmake -B b -DCMAKE_TOOLCHAIN_FILE=cmake/msp430-clang.cmake [-DMOTEBOX_MSP430_MPY=mpy16]
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR msp430)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET msp430)
set(CMAKE_ASM_COMPILER clang)
set(CMAKE_ASM_COMPILER_TARGET msp430)
find_program(CMAKE_AR NAMES llvm-ar llvm-ar-14 REQUIRED)
find_program(CMAKE_RANLIB NAMES llvm-ranlib llvm-ranlib-14 REQUIRED)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(MOTEBOX_DEFAULT_ARCH msp430x)
