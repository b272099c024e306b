// SHA-256 digests (OpenSSL's libcrypto), as lowercase hex: the identity of a trace or job file
// in summary.json, and the digest of a run's set-up in a sweep's journal.
#pragma once

#include <string>
#include <string_view>

namespace slotflow {

std::string Sha256Hex(std::string_view data);

}  // namespace slotflow
