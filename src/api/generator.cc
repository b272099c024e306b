#include "api/generator.h"

namespace slotflow {

SLOTFLOW_DEFINE_REGISTRY(GeneratorRegistry);

}  // namespace slotflow
