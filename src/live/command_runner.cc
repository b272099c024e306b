#include "live/command_runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace slotflow {
namespace {

// The file to execute for argv[0]: itself if it holds a '/', else the first executable of that
// name in PATH, /usr/sbin or /sbin; empty if there is none.
std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* env_path = std::getenv("PATH");
  const std::string dirs = std::string(env_path ? env_path : "") + ":/usr/sbin:/sbin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty()) {
      const std::string candidate = dir + "/" + name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    start = end + 1;
  }
  return "";
}

// A pipe whose ends are closed in the child by exec (the child gets copies through dup2).
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
      throw CommandError(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
    }
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) close(read);
    if (write >= 0) close(write);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void CloseWrite() {
    close(write);
    write = -1;
  }
};

// Reads both pipes until each reaches end of file, so that neither can fill and block the child.
void Drain(Pipe& out, Pipe& err, CommandResult& result) {
  std::array<pollfd, 2> fds{{{out.read, POLLIN, 0}, {err.read, POLLIN, 0}}};
  std::array<std::string*, 2> into{&result.out, &result.err};
  int open = 2;
  char buffer[4096];
  while (open > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw CommandError(fmt::format("cannot read a program's output: {}", std::strerror(errno)));
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        into[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

int WaitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw CommandError(fmt::format("cannot wait for a program: {}", std::strerror(errno)));
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

CommandResult RunProgram(const std::vector<std::string>& argv) {
  if (argv.empty()) throw CommandError("no program to run");
  const std::string path = FindProgram(argv[0]);
  if (path.empty()) {
    throw CommandError(
        fmt::format("cannot run '{}': not found in PATH, /usr/sbin or /sbin", argv[0]));
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, path.c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw CommandError(fmt::format("cannot run '{}': {}", path, std::strerror(rc)));
  }
  out.CloseWrite();
  err.CloseWrite();
  CommandResult result;
  Drain(out, err, result);
  result.exit_code = WaitFor(pid);
  return result;
}

CommandResult RunOrThrow(const CommandRunner& run, const std::vector<std::string>& argv) {
  CommandResult r = run(argv);
  if (r.exit_code != 0) {
    std::string said = r.err.empty() ? r.out : r.err;
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    throw CommandError(fmt::format("`{}` failed (exit {}){}{}", CommandLine(argv), r.exit_code,
                                   said.empty() ? "" : ": ", said));
  }
  return r;
}

std::string CommandLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) {
    if (!line.empty()) line += ' ';
    const bool quote = a.empty() || a.find_first_of(" '\"") != std::string::npos;
    line += quote ? "'" + a + "'" : a;
  }
  return line;
}

}  // namespace slotflow
