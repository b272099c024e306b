#include "live/agent_processes.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "live/command_runner.h"

extern char** environ;

namespace slotflow {
namespace {

std::string Program(const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return c;
  }
  return candidates.front();
}

}  // namespace

void AgentProcesses::Start(const std::string& netns, int host, const std::string& master,
                           const std::string& program) {
  const std::string ip = Program({"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"});
  const std::string self =
      program.empty() ? std::filesystem::read_symlink("/proc/self/exe").string() : program;
  std::vector<std::string> args = {ip,         "netns", "exec",   netns,
                                   self,       "agent", "--host", std::to_string(host),
                                   "--master", master};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, ip.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    throw CommandError("cannot start " + CommandLine(args));
  }
  pids_.push_back(pid);
}

void AgentProcesses::Stop(std::chrono::milliseconds grace) {
  const auto until = std::chrono::steady_clock::now() + grace;
  for (bool signalled = false;;) {
    std::erase_if(pids_, [](pid_t p) { return waitpid(p, nullptr, WNOHANG) != 0; });
    if (pids_.empty()) return;
    if (std::chrono::steady_clock::now() >= until) {
      for (pid_t p : pids_) kill(p, signalled ? SIGKILL : SIGTERM);
      if (signalled) {
        for (pid_t p : pids_) waitpid(p, nullptr, 0);
        pids_.clear();
        return;
      }
      signalled = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

AgentProcesses::~AgentProcesses() { Stop(std::chrono::milliseconds(0)); }

}  // namespace slotflow
