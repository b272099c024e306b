#include "api/tie_break.h"

namespace slotflow {

SettingSpec TieSetting() {
  return SettingSpec{.name = "ties",
                     .kind = SettingKind::kChoice,
                     .default_value = "random",
                     .meaning =
                         "among servers equal on every criterion: random (seeded), or "
                         "first (the lowest id)",
                     .choices = {"random", "first"}};
}

TieBreak::TieBreak(const Settings& settings, uint64_t seed, uint64_t salt)
    : random_(settings.Choice<bool>("ties", {{"random", true}, {"first", false}})),
      rng_(seed ^ salt) {}

}  // namespace slotflow
