#include "live/agent.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <asio.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <stdexcept>
#include <thread>

#include "api/error.h"
#include "common/wall_duration.h"
#include "live/line_channel.h"

namespace slotflow {

using asio::ip::tcp;

namespace {

constexpr size_t kChunk = size_t{64} << 10;      // bytes per socket write or read
constexpr int64_t kDiskTurn = int64_t{1} << 20;  // bytes of a local block per handler

}  // namespace

struct Agent::Impl {
  struct TaskRun {
    int pending = 0;  // inputs not yet read
    double compute_s = 0;
    int attempt = 0;  // the launch's, echoed in task_done
    std::unique_ptr<asio::steady_timer> timer;
  };
  struct FetchRun {
    Fetch spec;
    TaskId task{-1};
    int64_t got = 0, reported = 0;
    std::shared_ptr<tcp::socket> socket;
    std::string request;
    std::vector<char> buffer = std::vector<char>(kChunk);
    bool cancelled = false;
  };
  struct ServeRun {
    std::shared_ptr<tcp::socket> socket;
    asio::streambuf in{4096};
    FlowId flow{-1};
    int64_t left = 0;
  };

  explicit Impl(AgentConfig c) : config(std::move(c)), acceptor(io), progress(io), beat(io) {}

  void Connect();
  void OnMessage(const ControlMessage& m);
  void StartTask(const Launch& l);
  void ReadLocal(TaskId t, int fd, std::string path, int64_t left);
  void StartFetch(std::shared_ptr<FetchRun> run);
  void ReadFetch(std::shared_ptr<FetchRun> run);
  void FetchDone(const std::shared_ptr<FetchRun>& run);
  void FetchFailedNow(const std::shared_ptr<FetchRun>& run, const std::string& why);
  void DropFetch(const std::shared_ptr<FetchRun>& run);
  void CancelTask(TaskId t);
  void InputDone(TaskId t);
  void Beat();
  void Accept();
  void Serve(std::shared_ptr<ServeRun> run);
  void WriteServe(std::shared_ptr<ServeRun> run);
  void Track(FlowId f, const std::shared_ptr<tcp::socket>& s);
  void Untrack(FlowId f, const std::shared_ptr<tcp::socket>& s);
  void Mark(tcp::socket& s, FlowId f, int cls);
  void ReportProgress();
  void Fail(const std::string& what);
  void Finish();

  AgentConfig config;
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer progress, beat;
  std::shared_ptr<LineChannel> master;
  std::map<FlowId, int> classes;  // the latest class the master gave each flow
  std::map<FlowId, std::vector<std::shared_ptr<tcp::socket>>> sockets;
  std::map<TaskId, TaskRun> tasks;
  std::map<FlowId, std::shared_ptr<FetchRun>> fetches;
  std::string failure;
  std::string master_error;
  bool done = false;
};

Agent::Agent(AgentConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {
  Impl& a = *impl_;
  std::error_code ec;
  const auto address = asio::ip::make_address(a.config.listen_address, ec);
  if (ec) throw InputError("", 0, "--listen", "not an IPv4 address: " + a.config.listen_address);
  const tcp::endpoint at(address, a.config.data_port);
  a.acceptor.open(at.protocol(), ec);
  if (!ec) a.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) a.acceptor.bind(at, ec);
  if (!ec) a.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw InputError("", 0, "--data-port",
                     fmt::format("cannot listen on {}:{}: {}", a.config.listen_address,
                                 a.config.data_port, ec.message()));
  }
}

Agent::~Agent() = default;

uint16_t Agent::data_port() const { return impl_->acceptor.local_endpoint().port(); }

void Agent::Stop() { impl_->io.stop(); }

std::vector<int> Agent::FlowSocketTos(FlowId f) {
  std::promise<std::vector<int>> result;
  asio::post(impl_->io, [&] {
    std::vector<int> tos;
    for (const auto& s : impl_->sockets[f]) tos.push_back(SocketTos(s->native_handle()));
    result.set_value(tos);
  });
  return result.get_future().get();
}

void Agent::Run() {
  Impl& a = *impl_;
  a.Connect();
  a.master->Start([&a](const ControlMessage& m) { a.OnMessage(m); },
                  [&a](const std::string& error) {
                    a.master_error = error;
                    a.Finish();
                  });
  a.master->Send(Hello{a.config.host, data_port()});
  a.Accept();
  a.ReportProgress();
  a.Beat();
  a.io.run();
  if (!a.failure.empty()) throw std::runtime_error(a.failure);
  if (!a.master_error.empty()) {
    throw std::runtime_error("the connection to the master failed: " + a.master_error);
  }
}

// Tries until connect_timeout: the master may still be starting.
void Agent::Impl::Connect() {
  std::error_code ec;
  const auto address = asio::ip::make_address(config.master_address, ec);
  if (ec) throw InputError("", 0, "--master", "not an IPv4 address: " + config.master_address);
  const tcp::endpoint at(address, config.master_port);
  const auto deadline = std::chrono::steady_clock::now() + WallDuration(config.connect_timeout);
  tcp::socket socket(io);
  while (true) {
    socket.close(ec);
    socket.connect(at, ec);
    if (!ec) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      throw InputError(
          "", 0, "--master",
          fmt::format("cannot reach the master at {}:{} within {:g} s: {}", config.master_address,
                      config.master_port, config.connect_timeout, ec.message()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  socket.set_option(tcp::no_delay(true));
  MarkSocket(socket.native_handle(), ControlTos());
  master = std::make_shared<LineChannel>(std::move(socket));
}

void Agent::Impl::OnMessage(const ControlMessage& m) {
  if (const auto* l = std::get_if<Launch>(&m)) {
    StartTask(*l);
  } else if (const auto* s = std::get_if<SetClass>(&m)) {
    classes[s->flow] = s->cls;
    for (const auto& socket : sockets[s->flow]) Mark(*socket, s->flow, s->cls);
  } else if (const auto* c = std::get_if<Cancel>(&m)) {
    CancelTask(c->task);
  } else if (std::holds_alternative<::slotflow::Stop>(m)) {
    Finish();
  } else {
    Fail(fmt::format("the master sent a {} message, which only agents send", MessageType(m)));
  }
}

void Agent::Impl::StartTask(const Launch& l) {
  if (tasks.count(l.task) != 0) {
    Fail(fmt::format("the master launched task {} twice", l.task));
    return;
  }
  TaskRun& run = tasks[l.task];
  run.compute_s = l.compute_s;
  run.attempt = l.attempt;
  run.pending = static_cast<int>(l.fetches.size()) + (l.local_bytes > 0 ? 1 : 0);
  if (l.local_bytes > 0) {
    const std::string path =
        fmt::format("{}/slotflow-block-h{}-t{}", config.scratch_dir, config.host, l.task);
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    // Unnamed at once: nothing is left behind, even by an agent that is killed.
    if (fd >= 0) ::unlink(path.c_str());
    if (fd < 0 || ::ftruncate(fd, l.local_bytes) != 0) {
      if (fd >= 0) ::close(fd);
      Fail(fmt::format("cannot make the local block {}", path));
      return;
    }
    asio::post(io, [this, t = l.task, fd, path, n = l.local_bytes] { ReadLocal(t, fd, path, n); });
  }
  for (const Fetch& f : l.fetches) {
    auto fetch = std::make_shared<FetchRun>();
    fetch->spec = f;
    fetch->task = l.task;
    fetches[f.flow] = fetch;
    StartFetch(fetch);
  }
  if (run.pending == 0) {
    run.pending = 1;
    InputDone(l.task);
  }
}

// A local block is read 1 MiB per handler, so that serving and fetching go on meanwhile, in
// reads of kChunk (64 KiB), which the page cache serves fastest.
void Agent::Impl::ReadLocal(TaskId t, int fd, std::string path, int64_t left) {
  static std::vector<char> chunk(kChunk);
  for (int64_t turn = 0; left > 0 && turn < kDiskTurn;) {
    const ssize_t n =
        ::read(fd, chunk.data(), static_cast<size_t>(std::min<int64_t>(left, kChunk)));
    if (n <= 0) {
      ::close(fd);
      Fail(fmt::format("reading the local block {} stopped with {} bytes left", path, left));
      return;
    }
    left -= n;
    turn += n;
  }
  if (left > 0) {
    asio::post(io, [this, t, fd, path = std::move(path), left] { ReadLocal(t, fd, path, left); });
    return;
  }
  ::close(fd);
  InputDone(t);
}

void Agent::Impl::StartFetch(std::shared_ptr<FetchRun> run) {
  std::error_code ec;
  const auto address = asio::ip::make_address(run->spec.address, ec);
  if (ec) {
    Fail(fmt::format("flow {}: bad source address {}", run->spec.flow, run->spec.address));
    return;
  }
  run->socket = std::make_shared<tcp::socket>(io);
  run->socket->open(tcp::v4(), ec);
  if (ec) {
    Fail(fmt::format("flow {}: cannot open a socket: {}", run->spec.flow, ec.message()));
    return;
  }
  // Marked and tracked before connecting, so that even its SYN is in its class.
  const auto known = classes.find(run->spec.flow);
  Mark(*run->socket, run->spec.flow, known != classes.end() ? known->second : run->spec.cls);
  Track(run->spec.flow, run->socket);
  run->socket->async_connect(
      tcp::endpoint(address, run->spec.port), [this, run](std::error_code e) {
        if (done || run->cancelled) return;
        if (e) {
          FetchFailedNow(run, fmt::format("cannot connect to {}:{}: {}", run->spec.address,
                                          run->spec.port, e.message()));
          return;
        }
        run->request = Encode(FetchRequest{run->spec.flow, run->spec.bytes, run->spec.cls});
        asio::async_write(*run->socket, asio::buffer(run->request),
                          [this, run](std::error_code we, size_t) {
                            if (done || run->cancelled) return;
                            if (we) {
                              FetchFailedNow(run, we.message());
                              return;
                            }
                            ReadFetch(run);
                          });
      });
}

void Agent::Impl::ReadFetch(std::shared_ptr<FetchRun> run) {
  if (run->got >= run->spec.bytes) {
    FetchDone(run);
    return;
  }
  run->socket->async_read_some(asio::buffer(run->buffer), [this, run](std::error_code e, size_t n) {
    if (done || run->cancelled) return;
    run->got += static_cast<int64_t>(n);
    if (e && run->got < run->spec.bytes) {
      FetchFailedNow(run, fmt::format("the source closed after {} of {} bytes: {}", run->got,
                                      run->spec.bytes, e.message()));
      return;
    }
    ReadFetch(run);
  });
}

void Agent::Impl::FetchDone(const std::shared_ptr<FetchRun>& run) {
  const FlowId f = run->spec.flow;
  master->Send(FlowDone{f, run->got});
  Untrack(f, run->socket);
  std::error_code ignored;
  run->socket->close(ignored);
  fetches.erase(f);
  classes.erase(f);
  InputDone(run->task);
}

// The task keeps waiting for this input: the master decides (it cancels the task when the
// source is lost, or ends the run).
void Agent::Impl::FetchFailedNow(const std::shared_ptr<FetchRun>& run, const std::string& why) {
  master->Send(FetchFailed{run->spec.flow,
                           fmt::format("agent {}: flow {}: {}", config.host, run->spec.flow, why)});
  DropFetch(run);
}

void Agent::Impl::DropFetch(const std::shared_ptr<FetchRun>& run) {
  run->cancelled = true;
  Untrack(run->spec.flow, run->socket);
  std::error_code ignored;
  if (run->socket) run->socket->close(ignored);
  fetches.erase(run->spec.flow);
  classes.erase(run->spec.flow);
}

void Agent::Impl::CancelTask(TaskId t) {
  std::vector<std::shared_ptr<FetchRun>> of_task;
  for (const auto& [f, run] : fetches) {
    if (run->task == t) of_task.push_back(run);
  }
  for (const auto& run : of_task) DropFetch(run);
  const auto it = tasks.find(t);
  if (it == tasks.end()) return;
  if (it->second.timer) it->second.timer->cancel();
  tasks.erase(it);
}

void Agent::Impl::InputDone(TaskId t) {
  const auto it = tasks.find(t);
  if (it == tasks.end()) return;  // cancelled
  TaskRun& run = it->second;
  if (--run.pending > 0) return;
  run.timer = std::make_unique<asio::steady_timer>(io, WallDuration(run.compute_s));
  run.timer->async_wait([this, t, attempt = run.attempt](std::error_code e) {
    if (e || done) return;
    tasks.erase(t);
    master->Send(TaskDone{t, attempt});
  });
}

void Agent::Impl::Accept() {
  acceptor.async_accept([this](std::error_code e, tcp::socket socket) {
    if (done) return;
    if (!e) {
      auto run = std::make_shared<ServeRun>();
      run->socket = std::make_shared<tcp::socket>(std::move(socket));
      Serve(run);
    }
    Accept();
  });
}

void Agent::Impl::Serve(std::shared_ptr<ServeRun> run) {
  asio::async_read_until(*run->socket, run->in, '\n', [this, run](std::error_code e, size_t n) {
    if (done || e) return;  // a fetcher that went away has already told its master
    std::string line(n, '\0');
    std::istream(&run->in).read(line.data(), static_cast<std::streamsize>(n));
    FetchRequest req;
    try {
      req = std::get<FetchRequest>(Decode(line));
    } catch (const std::exception&) {
      return;  // not a fetch: drop the connection
    }
    run->flow = req.flow;
    run->left = req.bytes;
    const auto known = classes.find(req.flow);
    Mark(*run->socket, req.flow, known != classes.end() ? known->second : req.cls);
    Track(req.flow, run->socket);
    WriteServe(run);
  });
}

// Served bytes are generated: a block or a map output is only its size here.
void Agent::Impl::WriteServe(std::shared_ptr<ServeRun> run) {
  static const std::vector<char> data(kChunk, 'x');
  if (run->left == 0) {
    Untrack(run->flow, run->socket);
    std::error_code ignored;
    run->socket->shutdown(tcp::socket::shutdown_send, ignored);
    return;
  }
  const auto n = static_cast<size_t>(std::min<int64_t>(run->left, kChunk));
  asio::async_write(*run->socket, asio::buffer(data.data(), n),
                    [this, run](std::error_code e, size_t written) {
                      if (done) return;
                      if (e) {
                        Untrack(run->flow, run->socket);
                        return;
                      }
                      run->left -= static_cast<int64_t>(written);
                      WriteServe(run);
                    });
}

void Agent::Impl::Track(FlowId f, const std::shared_ptr<tcp::socket>& s) {
  sockets[f].push_back(s);
}

void Agent::Impl::Untrack(FlowId f, const std::shared_ptr<tcp::socket>& s) {
  auto it = sockets.find(f);
  if (it == sockets.end()) return;
  std::erase(it->second, s);
  if (it->second.empty()) sockets.erase(it);
}

void Agent::Impl::Mark(tcp::socket& s, FlowId f, int cls) {
  try {
    MarkSocket(s.native_handle(), TosOfClass(cls));
  } catch (const std::system_error& e) {
    Fail(fmt::format("flow {}: {}", f, e.what()));
  }
}

void Agent::Impl::ReportProgress() {
  for (auto& [f, run] : fetches) {
    if (run->got == run->reported || run->got >= run->spec.bytes) continue;
    run->reported = run->got;
    master->Send(FlowProgress{f, run->got});
  }
  progress.expires_after(WallDuration(config.progress_interval));
  progress.async_wait([this](std::error_code e) {
    if (!e && !done) ReportProgress();
  });
}

void Agent::Impl::Beat() {
  beat.expires_after(WallDuration(config.heartbeat_interval));
  beat.async_wait([this](std::error_code e) {
    if (e || done) return;
    master->Send(Heartbeat{});
    Beat();
  });
}

void Agent::Impl::Fail(const std::string& what) {
  if (done) return;
  failure = fmt::format("agent {}: {}", config.host, what);
  if (master) master->Send(AgentFailure{failure});
  Finish();
}

void Agent::Impl::Finish() {
  if (done) return;
  done = true;
  std::error_code ignored;
  acceptor.close(ignored);
  progress.cancel();
  beat.cancel();
  for (auto& [t, run] : tasks) {
    if (run.timer) run.timer->cancel();
  }
  for (auto& [f, list] : sockets) {
    for (auto& s : list) s->close(ignored);
  }
  for (auto& [f, run] : fetches) {
    if (run->socket) run->socket->close(ignored);
  }
  if (master) master->CloseWhenSent();  // a failure report still leaves
}

}  // namespace slotflow
