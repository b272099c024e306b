#include "master/master.h"

#include <fmt/format.h>

#include <algorithm>
#include <asio.hpp>
#include <chrono>
#include <csignal>
#include <optional>
#include <stdexcept>

#include "api/error.h"
#include "common/wall_duration.h"
#include "live/line_channel.h"
#include "live/testbed_plan.h"
#include "master/asio_clock.h"
#include "master/journal.h"
#include "master/live_run.h"

namespace slotflow {

using asio::ip::tcp;
using WallClock = std::chrono::steady_clock;

namespace {}  // namespace

struct Master::Impl final : public AgentLink {
  Impl(const Cluster& c, const Workload& w, std::unique_ptr<TaskScheduler> s,
       std::unique_ptr<NetworkPolicy> n, const MasterConfig& cfg)
      : cluster(c),
        config(cfg),
        acceptor(io),
        join_timer(io),
        reclassify_timer(io),
        deadline_timer(io),
        signals(io),
        clock(io, [this] { Settle(); }),
        agents(c.size()),
        agent_address(c.size()),
        data_port(c.size(), 0),
        run(c, w, std::move(s), std::move(n),
            LiveRunConfig{cfg.seed, cfg.estimate_error, cfg.journal, cfg.log, cfg.read_blocks},
            clock, *this) {}

  // --- AgentLink
  void Send(ServerId host, const ControlMessage& m) override {
    if (agents[host]) agents[host]->Send(m);
  }
  std::pair<std::string, uint16_t> DataEndpoint(ServerId host) const override {
    return {agent_address[host], data_port[host]};
  }

  // The time of the event being handled, read once per event (the clock's).
  void Advance() { clock.Advance(); }
  void Listen();
  void Accept();
  void OnHello(const std::shared_ptr<LineChannel>& channel, const Hello& h);
  void OnAgentMessage(int host, const ControlMessage& m);
  void ArmSilence(int host);
  void OnFetchFailed(int host, const FetchFailed& f);
  void LoseAgent(int host, const std::string& why);
  void Begin();
  void Settle();
  void ScheduleReclassify();
  void Abort(const std::string& why);
  void End();

  const Cluster& cluster;
  MasterConfig config;
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer join_timer, reclassify_timer, deadline_timer;
  asio::signal_set signals;  // SIGINT and SIGTERM end the run as a failure, cleanly
  AsioClock clock;           // the driver's timers; made before the run, which reads it
  std::vector<std::unique_ptr<asio::steady_timer>> silence;      // per host: agent_timeout
  std::vector<std::shared_ptr<asio::steady_timer>> fetch_grace;  // one per failed fetch
  std::vector<std::shared_ptr<LineChannel>> agents;              // by host
  std::vector<std::string> agent_address;
  std::vector<uint16_t> data_port;
  LiveRun run;
  int joined = 0;
  bool started = false, ended = false;
  WallClock::time_point run_start;
  std::string error;
  int64_t messages = 0;
};

Master::Master(const Cluster& cluster, const Workload& workload,
               std::unique_ptr<TaskScheduler> scheduler,
               std::unique_ptr<NetworkPolicy> network_policy, const MasterConfig& config) {
  if (cluster.HasDisks()) {
    throw InputError("", 0, "--disk", "live mode does not model disks; leave --disk out");
  }
  impl_ = std::make_unique<Impl>(cluster, workload, std::move(scheduler), std::move(network_policy),
                                 config);
  Impl& m = *impl_;
  for (ServerId s{0}; s < cluster.size(); ++s) {
    m.silence.push_back(std::make_unique<asio::steady_timer>(m.io));
  }
  m.Listen();
}

Master::~Master() = default;

uint16_t Master::port() const { return impl_->acceptor.local_endpoint().port(); }

void Master::Impl::Listen() {
  std::error_code ec;
  const auto address = asio::ip::make_address(config.listen_address, ec);
  if (ec) throw InputError("the master's address is not IPv4: " + config.listen_address);
  const tcp::endpoint at(address, config.port);
  acceptor.open(at.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(at, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw InputError(fmt::format("the master cannot listen on {}:{}: {}", config.listen_address,
                                 config.port, ec.message()));
  }
}

RunResult Master::Run() {
  Impl& m = *impl_;
  m.run_start = WallClock::now();
  m.deadline_timer.expires_after(WallDuration(m.config.deadline));
  m.deadline_timer.async_wait([&m](std::error_code e) {
    if (e) return;
    m.Abort(m.started ? fmt::format("the deadline of {:g} s passed with {} of {} jobs unfinished",
                                    m.config.deadline, m.run.unfinished_jobs(), m.run.job_count())
                      : fmt::format("the deadline of {:g} s passed before every agent joined",
                                    m.config.deadline));
  });
  m.join_timer.expires_after(WallDuration(m.config.join_timeout));
  m.join_timer.async_wait([&m](std::error_code e) {
    if (e || m.started) return;
    m.Abort(fmt::format("only {} of {} agents said hello within {:g} s", m.joined, m.cluster.size(),
                        m.config.join_timeout));
  });
  m.signals.add(SIGINT);
  m.signals.add(SIGTERM);
  m.signals.async_wait([&m](std::error_code e, int signal) {
    if (!e) m.Abort(fmt::format("interrupted by signal {}", signal));
  });
  m.Accept();
  m.io.run();
  m.signals.clear();
  if (!m.error.empty()) throw LiveRunError(m.error);
  RunResult r = m.run.Collect(m.messages);
  r.summary.wall_s = std::chrono::duration<double>(WallClock::now() - m.run_start).count();
  return r;
}

void Master::Impl::Accept() {
  acceptor.async_accept([this](std::error_code e, tcp::socket socket) {
    if (ended || !acceptor.is_open()) return;  // closed when the run ends
    if (e) {
      Accept();
      return;
    }
    socket.set_option(tcp::no_delay(true));
    MarkSocket(socket.native_handle(), ControlTos());
    auto channel = std::make_shared<LineChannel>(std::move(socket));
    std::weak_ptr<LineChannel> weak = channel;
    channel->Start(
        [this, weak](const ControlMessage& m) {
          const auto h = std::get_if<Hello>(&m);
          if (h == nullptr) {
            // Once the run has begun, a stray connection is refused, not fatal.
            if (started) {
              if (auto c = weak.lock()) c->Close();
              return;
            }
            Abort(fmt::format("an agent sent {} before hello", MessageType(m)));
            return;
          }
          if (auto c = weak.lock()) OnHello(c, *h);
        },
        [this](const std::string& why) {
          if (!why.empty() && !started) Abort("an agent's connection failed before hello: " + why);
        });
    Accept();
  });
}

void Master::Impl::OnHello(const std::shared_ptr<LineChannel>& channel, const Hello& h) {
  if (h.host < 0 || h.host >= cluster.size()) {
    Abort(fmt::format("an agent says it is host {}, but the cluster has hosts 0..{}", h.host,
                      cluster.size() - 1));
    return;
  }
  if (agents[h.host]) {
    if (started) {  // its host's agent is running: the newcomer is refused
      channel->Close();
      return;
    }
    Abort(fmt::format("two agents say they are host {}", h.host));
    return;
  }
  const bool rejoins = started;  // a host lost since the run began (only those are missing)
  std::error_code ec;
  agent_address[h.host] = channel->socket().remote_endpoint(ec).address().to_string();
  data_port[h.host] = h.data_port;
  agents[h.host] = channel;
  // From now on this channel's messages are host h's.
  channel->Rebind([this, host = h.host](const ControlMessage& m) { OnAgentMessage(host, m); },
                  [this, host = h.host](const std::string& why) {
                    if (ended) return;
                    const std::string what =
                        fmt::format("its connection closed{}", why.empty() ? "" : ": " + why);
                    if (started) return LoseAgent(host, what);
                    Abort(fmt::format("agent {} went away before the run began: {}", host, what));
                  });
  ArmSilence(h.host);
  if (rejoins) {
    Advance();
    run.RejoinHost(ServerId{h.host});
    Settle();
    return;
  }
  if (++joined == cluster.size()) Begin();
}

// The acceptor stays open: a new agent for a host that is lost rejoins.
void Master::Impl::Begin() {
  join_timer.cancel();
  started = true;
  clock.Start(WallClock::now());
  run.Begin();
  Settle();
}

void Master::Impl::OnAgentMessage(int host, const ControlMessage& m) {
  if (ended || !agents[host]) return;
  ArmSilence(host);
  if (std::holds_alternative<Heartbeat>(m)) return;
  Advance();
  ++messages;
  if (const auto* ff = std::get_if<FetchFailed>(&m)) {
    OnFetchFailed(host, *ff);
  } else if (const auto* f = std::get_if<AgentFailure>(&m)) {
    return Abort(f->text);
  } else if (std::holds_alternative<FlowProgress>(m) || std::holds_alternative<FlowDone>(m) ||
             std::holds_alternative<TaskDone>(m)) {
    if (std::string wrong = run.OnReport(ServerId{host}, m); !wrong.empty()) return Abort(wrong);
  } else {
    return Abort(
        fmt::format("agent {} sent {}, which only the master sends", host, MessageType(m)));
  }
  Settle();
}

void Master::Impl::ArmSilence(int host) {
  asio::steady_timer& t = *silence[host];
  t.expires_after(WallDuration(config.agent_timeout));
  t.async_wait([this, host](std::error_code e) {
    if (e || ended || !agents[host]) return;
    if (!started) {
      return Abort(fmt::format("agent {} was silent for {:g} s before the run began", host,
                               config.agent_timeout));
    }
    LoseAgent(host, fmt::format("silent for {:g} s", config.agent_timeout));
  });
}

// A fetch fails when its source dies, often before the source's own connection is seen to
// close: the source gets agent_timeout to be found lost (which cancels the flow); a flow still
// running then failed for another reason, and ends the run.
void Master::Impl::OnFetchFailed(int host, const FetchFailed& f) {
  const LiveFlows& flows = run.flows();
  if (f.flow < 0 || f.flow >= flows.FlowCount()) {
    return Abort(fmt::format("agent {}: unknown flow {}", host, f.flow));
  }
  if (!flows.Active(f.flow)) return;
  auto timer = std::make_shared<asio::steady_timer>(io, WallDuration(config.agent_timeout));
  fetch_grace.push_back(timer);
  timer->async_wait([this, timer, f, &flows](std::error_code e) {
    if (e || ended || !flows.Active(f.flow)) return;
    Abort(fmt::format("{} (its source, agent {}, is still connected)", f.text,
                      flows.flow(f.flow).spec.src));
  });
}

// The host's server is lost to the life cycle; whatever that undid is cancelled on the agents
// still running it, and placed again by the next step.
void Master::Impl::LoseAgent(int host, const std::string& why) {
  if (ended || !agents[host]) return;
  Advance();
  std::shared_ptr<LineChannel> gone = std::move(agents[host]);
  gone->Rebind([](const ControlMessage&) {}, [](const std::string&) {});
  gone->Close();
  silence[host]->cancel();
  if (std::string unrecoverable = run.LoseHost(ServerId{host}); !unrecoverable.empty()) {
    return Abort(fmt::format("agent {} was lost ({}), and {}", host, why, unrecoverable));
  }
  if (std::none_of(agents.begin(), agents.end(), [](const auto& a) { return a != nullptr; })) {
    return Abort(
        fmt::format("agent {} was lost ({}): no agent is left to run the {} unfinished "
                    "jobs",
                    host, why, run.unfinished_jobs()));
  }
  Settle();
}

// The step after every event: the run's (decisions, the network policy, the messages they
// call for), then the policy's next re-rank time.
void Master::Impl::Settle() {
  if (ended) return;
  run.Settle();
  ScheduleReclassify();
  if (run.unfinished_jobs() == 0) End();
}

void Master::Impl::ScheduleReclassify() {
  const Seconds at = run.reclassify_at();
  if (at == kForever) {
    reclassify_timer.cancel();
    return;
  }
  reclassify_timer.expires_at(clock.start() + WallDuration(at));
  reclassify_timer.async_wait([this](std::error_code e) {
    if (e || ended) return;
    Advance();
    Settle();
  });
}

void Master::Impl::Abort(const std::string& why) {
  if (ended) return;
  error = why;
  End();
}

void Master::Impl::End() {
  if (ended) return;
  ended = true;
  std::error_code ignored;
  acceptor.close(ignored);
  for (auto* t : {&join_timer, &reclassify_timer, &deadline_timer}) t->cancel();
  clock.Stop();
  for (auto& t : silence) t->cancel();
  for (auto& t : fetch_grace) t->cancel();
  signals.cancel();
  for (auto& a : agents) {
    if (!a) continue;
    a->Send(Stop{});
    a->CloseWhenSent();
  }
}

}  // namespace slotflow
