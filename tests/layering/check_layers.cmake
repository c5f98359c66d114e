# Fails when a file of collision/src includes an internal header from a layer above its own.
#
#   cmake -DSOURCE_DIR=<collision/src> -P check_layers.cmake
#
# Each folder of collision/src is one layer (docs/architecture.md); a file may include the
# public headers (collision/...), headers of its own folder, and headers of lower layers only.
# Layers of equal rank are independent: the narrow phase must not reach into world/ or back.
# A folder missing from this table fails too, so that a new folder is placed on purpose. A subfolder
# belongs to its top folder's layer (narrow_phase/pairs/ is the narrow phase's).
set(rank_common 0)
set(rank_geometry 1)
set(rank_narrow_phase 2)
set(rank_world 2)
set(rank_config 2)
set(rank_simd 2)
set(rank_broad_phase 3)
set(rank_checker 4)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layers: pass -DSOURCE_DIR=<collision/src>")
endif()
get_filename_component(SOURCE_DIR ${SOURCE_DIR} ABSOLUTE)
file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.cpp)
if(NOT files)
  message(FATAL_ERROR "check_layers: no sources under ${SOURCE_DIR}")
endif()

set(violations "")
foreach(file ${files})
  string(REGEX MATCH "^[^/]+" layer ${file})
  if(layer STREQUAL file OR NOT DEFINED rank_${layer})
    string(APPEND violations "\n  ${file}: not in a known layer folder")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line ${includes})
    string(REGEX REPLACE "^[^\"]*\"([^\"]*)\".*$" "\\1" header "${line}")
    string(REGEX MATCH "^[^/]+" target ${header})
    if(target STREQUAL "collision" OR target STREQUAL layer)
      continue()
    endif()
    if(target STREQUAL header OR NOT DEFINED rank_${target})
      string(APPEND violations "\n  ${file}: includes \"${header}\", not from a layer folder")
    elseif(NOT rank_${target} LESS rank_${layer})
      string(APPEND violations
             "\n  ${file}: includes \"${header}\": ${target}/ is not below ${layer}/")
    endif()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "check_layers: includes against the layering:${violations}")
endif()
list(LENGTH files count)
message(STATUS "check_layers: ${count} files, every include from its own layer or one below")
