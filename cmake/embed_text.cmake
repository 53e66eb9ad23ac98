# tw_embed_text(<file> <header> <namespace> <function> <out_var>): embeds a text file in the build.
# Reads its bytes at configure time, writes them as a C++ array into generated/<function>.cpp that
# defines `std::string_view <namespace>::<function>()` (declared in <header>), re-runs the configure
# step whenever the file changes, and sets <out_var> to the generated source. An array, not a string
# literal: one this long would trip -Woverlength-strings under -Wpedantic.
function(tw_embed_text file header namespace function out_var)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(READ ${file} _hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _bytes "${_hex}")
  string(REGEX REPLACE "((0x..,){24})" "\\1\n" TW_EMBED_BYTES "${_bytes}")
  file(RELATIVE_PATH TW_EMBED_FROM ${PROJECT_SOURCE_DIR} ${file})
  set(TW_EMBED_HEADER ${header})
  set(TW_EMBED_NAMESPACE ${namespace})
  set(TW_EMBED_FUNCTION ${function})
  set(_out ${PROJECT_BINARY_DIR}/generated/${function}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/embedded_text.cpp.in ${_out} @ONLY)
  set(${out_var} ${_out} PARENT_SCOPE)
endfunction()
