# cmake -DINPUT=<file> -DOUTPUT=<file.inc> -DNAME=<identifier> -P EmbedBinary.cmake
# Writes OUTPUT, a C++ fragment defining `alignas(64) static const unsigned char NAME[]` with
# INPUT's bytes (and NAME##Size); the fragment is #included by the file that uses the image.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# 16 bytes per line.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/EmbedBinary.cmake; do not edit.\n"
  "alignas(64) static const unsigned char ${NAME}[] = {\n${bytes}\n};\n"
  "static const unsigned long long ${NAME}Size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
