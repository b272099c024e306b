// libFuzzer harness for the job-file readers (TOML, and JSON Lines when the input starts with
// '{', as `--jobs` chooses): any input must either parse into a workload that validates, or
// raise an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/error.h"
#include "workload/job_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const slotflow::JobFile f = slotflow::LooksLikeJobLines(text)
                                    ? slotflow::ParseJobLines(text, "fuzz.jsonl")
                                    : slotflow::ParseJobFile(text, "fuzz.toml");
    if (f.cluster) f.cluster->Validate();
    f.workload.Validate(f.cluster ? f.cluster->ServerCount() : 1000);
  } catch (const slotflow::InputError&) {
  }
  return 0;
}
