// Reading an input file (trace, job file, config) whole, with the checks every reader shares:
// it must exist, be a regular file (not a directory or a device such as /dev/zero) and be no
// larger than a limit, so a mistaken path fails with a clear error instead of a hang or an
// allocation failure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace slotflow {

// Inputs larger than this are refused: the Facebook trace is 1.6 MB, and a workload a
// thousand times larger would still take minutes just to parse.
inline constexpr uintmax_t kMaxInputFileBytes = uintmax_t{1} << 30;

// The file's contents; InputError naming `path` and `field` (the flag or key that named it)
// when it is missing, not a regular file, unreadable or too large.
std::string ReadInputFile(const std::string& path, std::string_view field,
                          uintmax_t max_bytes = kMaxInputFileBytes);

// The same checks without reading, for a caller that knows where the name came from before
// the reader does (a flag, whose file is read later).
void CheckInputFile(const std::string& path, std::string_view field,
                    uintmax_t max_bytes = kMaxInputFileBytes);

// The text without a UTF-8 byte-order mark at its start: some editors write one, and a reader
// that tells formats apart by the first character would otherwise take it for text.
std::string_view SkipByteOrderMark(std::string_view text);

}  // namespace slotflow
