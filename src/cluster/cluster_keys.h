// The [cluster] keys, each declared once as a policy setting is (name, kind, default, meaning,
// range) with how it is set on and read from a ClusterSpec. Every front end reads this table:
// a config file's [cluster] table (and Python's cluster={...}), `--set cluster.KEY=VALUE`, the
// command line's flag of its own (--KEY, dashes for underscores), and the set-up a run writes
// (setup.toml, summary.json). Adding a key is one declaration here plus its use.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/cluster.h"
#include "api/settings.h"

namespace slotflow {

// A value as parsed: its number, and for a choice its word.
struct KeyValue {
  double number = 0;
  std::string word;
};

struct ClusterKey {
  SettingSpec setting;
  // A server's key (slots, nic, ...): also a key of each [[cluster.class]] entry, and given at
  // the top level it applies to every class. Set through set_server; written with the classes.
  std::function<void(ServerClass&, const KeyValue&)> set_server;
  std::function<KeyValue(const ServerClass&)> get_server;
  // A cluster-wide key: set through set, written to a set-up from get. `servers` has set only
  // (the classes' counts are written).
  std::function<void(ClusterSpec&, const KeyValue&, const SettingAssignment&)> set;
  std::function<KeyValue(const ClusterSpec&)> get;
};

// Every declared key, in declaration order.
const std::vector<ClusterKey>& ClusterKeys();
// The key of that name, or nullptr.
const ClusterKey* FindClusterKey(std::string_view name);
// Declares one more key (std::logic_error if the name is taken). For tests and extensions: the
// built-in keys are declared in cluster_keys.cc.
void DeclareClusterKey(ClusterKey key);
// Removes a key declared by DeclareClusterKey (for tests that declare one).
void RemoveClusterKey(std::string_view name);

// Parses an assignment to a declared key (key without "cluster."); InputError naming its source
// and field for an unknown key (listing the known ones) or a value out of its domain.
KeyValue ParseClusterValue(const SettingAssignment& given);
// Applies a value parsed for `key` (a server's key to every class); InputError at `given` for
// `servers` on a cluster of several classes.
void ApplyClusterValue(const ClusterKey& key, const KeyValue& value, const SettingAssignment& given,
                       ClusterSpec& spec);
// Applies an assignment given after the cluster is read (a flag, `--set cluster.KEY`): a
// server's key to every class. InputError naming its source as above, or for `servers` on a
// cluster of several classes.
void ApplyClusterSetting(const SettingAssignment& given, ClusterSpec& spec);

}  // namespace slotflow
