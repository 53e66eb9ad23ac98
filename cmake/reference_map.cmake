# Embeds maps/reference.json into tickwire_world: reads its bytes at configure time, writes them as
# a C++ array (generated/reference_map_text.cpp, exposing reference_map_text()) and re-runs the
# configure step whenever the map file changes. Sets TICKWIRE_REFERENCE_MAP_SOURCE.
set(_map_file ${PROJECT_SOURCE_DIR}/maps/reference.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_map_file})
file(READ ${_map_file} _map_hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _map_bytes "${_map_hex}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n" TICKWIRE_REFERENCE_MAP_BYTES "${_map_bytes}")
set(TICKWIRE_REFERENCE_MAP_SOURCE ${PROJECT_BINARY_DIR}/generated/reference_map_text.cpp)
configure_file(${PROJECT_SOURCE_DIR}/src/world/reference_map_text.cpp.in ${TICKWIRE_REFERENCE_MAP_SOURCE} @ONLY)
unset(_map_file)
unset(_map_hex)
unset(_map_bytes)
