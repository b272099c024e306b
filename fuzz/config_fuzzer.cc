// libFuzzer harness for the config-file reader (TOML, or a summary.json's set-up when the input
// starts with '{', as `--config` reads a file): any input must either apply to a RunSpec whose
// cluster validates and whose policy settings resolve, or raise an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/error.h"
#include "run/config_file.h"
#include "run/policies.h"
#include "run/run_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    slotflow::RunSpec spec;
    slotflow::ApplyConfigSource(text, "fuzz.toml", spec);
    spec.cluster.Validate();
    slotflow::ResolvePolicies(spec);
  } catch (const slotflow::InputError&) {
  }
  return 0;
}
