// Test helpers for live mode over loopback: an agent running in a thread, and the other end of
// a control or data connection driven by hand with blocking reads that give up after a while.
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <asio.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <istream>
#include <string>
#include <thread>

#include "live/agent.h"
#include "live/control_message.h"

namespace slotflow::testing {

using asio::ip::tcp;

// No blocking read in these tests waits longer than this.
inline void LimitReads(tcp::socket& s, int seconds = 10) {
  timeval tv{seconds, 0};
  setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

// One end of a connection carrying message lines.
class Peer {
 public:
  explicit Peer(asio::io_context& io) : socket_(io) {}
  tcp::socket& socket() { return socket_; }
  void Send(const ControlMessage& m) { asio::write(socket_, asio::buffer(Encode(m))); }
  ControlMessage Receive() {
    asio::read_until(socket_, in_, '\n');
    std::string line;
    std::getline(std::istream(&in_), line);
    return Decode(line);
  }
  // The next message that is not a progress report.
  ControlMessage ReceiveSkippingProgress() {
    while (true) {
      ControlMessage m = Receive();
      if (!std::holds_alternative<FlowProgress>(m) && !std::holds_alternative<Heartbeat>(m)) {
        return m;
      }
    }
  }

 private:
  tcp::socket socket_;
  asio::streambuf in_;
};

// A listener on 127.0.0.1 standing in for a master or a data server.
class Listener {
 public:
  Listener() : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {}
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  asio::io_context& io() { return io_; }
  // Waits (at most 10 s) for the next connection.
  void Accept(Peer& peer) {
    acceptor_.non_blocking(true);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::error_code ec;
    do {
      acceptor_.accept(peer.socket(), ec);
      if (ec == asio::error::would_block) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } while (ec == asio::error::would_block && std::chrono::steady_clock::now() < until);
    ASSERT_FALSE(ec) << "no connection: " << ec.message();
    peer.socket().non_blocking(false);
    LimitReads(peer.socket());
  }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
};

// An agent of host `host` serving on 127.0.0.1, run in a thread until it ends.
class AgentThread {
 public:
  AgentThread(int host, uint16_t master_port, Seconds connect_timeout = 10)
      : agent_(Config(host, master_port, connect_timeout)) {}
  ~AgentThread() { Join(); }
  void Start() {
    thread_ = std::thread([this] {
      try {
        agent_.Run();
      } catch (...) {
        error_ = std::current_exception();
      }
    });
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }
  Agent& agent() { return agent_; }
  std::exception_ptr error() const { return error_; }

 private:
  static AgentConfig Config(int host, uint16_t master_port, Seconds connect_timeout) {
    AgentConfig c;
    c.host = host;
    c.master_port = master_port;
    c.listen_address = "127.0.0.1";
    c.connect_timeout = connect_timeout;
    c.progress_interval = 0.02;
    return c;
  }
  Agent agent_;
  std::thread thread_;
  std::exception_ptr error_;
};

// Polls `done` every 10 ms for up to 10 s.
inline bool Eventually(const std::function<bool()>& done) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace slotflow::testing
