// libFuzzer harness for the trace readers (the coflow trace, as jobs and as coflows, SWIM's and
// Alibaba's batch_task.csv):
// any input must either parse or raise an InputError; anything else (a crash, another
// exception, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "api/error.h"
#include "workload/alibaba_trace.h"
#include "workload/fb_trace.h"
#include "workload/swim_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const bool as_jobs : {true, false}) {
    std::istringstream in(text);
    try {
      if (as_jobs) {
        slotflow::ReadFbTraceAsJobs(in, "fuzz.trace", slotflow::FbTraceOptions{});
      } else {
        slotflow::ReadFbTraceAsCoflows(in, "fuzz.trace", slotflow::FbTraceOptions{});
      }
    } catch (const slotflow::InputError&) {
    }
  }
  std::istringstream in(text);
  try {
    // Stages of at most 10^5 tasks, so that a large byte count stays within the fuzzer's memory.
    slotflow::ReadSwimTrace(in, "fuzz.tsv", slotflow::SwimOptions{.max_tasks = 100'000});
  } catch (const slotflow::InputError&) {
  }
  std::istringstream alibaba(text);
  try {
    slotflow::ReadAlibabaTrace(alibaba, "fuzz.csv", slotflow::AlibabaOptions{});
  } catch (const slotflow::InputError&) {
  }
  return 0;
}
