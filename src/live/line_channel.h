// LineChannel: one TCP connection carrying ControlMessages, one per line, asynchronously on an
// asio io_context: a read loop that hands each decoded message to a callback, and a queue of
// messages to send in order. Master and agent both talk through it.
#pragma once

#include <asio.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "live/control_message.h"

namespace slotflow {

class LineChannel : public std::enable_shared_from_this<LineChannel> {
 public:
  using OnMessage = std::function<void(const ControlMessage&)>;
  // Called once when the connection ends: `error` is empty when the peer closed it cleanly,
  // else what went wrong (a read error, or a line that is not a message).
  using OnClose = std::function<void(const std::string& error)>;

  explicit LineChannel(asio::ip::tcp::socket socket);

  // Starts the read loop. Call once, from the io_context's thread or before it runs.
  void Start(OnMessage on_message, OnClose on_close);
  // Replaces the callbacks (also from within on_message: the next message goes to the new one).
  void Rebind(OnMessage on_message, OnClose on_close);
  // Queues `m`; messages go out in the order given. A no-op once closed.
  void Send(const ControlMessage& m);
  // Closes the socket; pending sends are dropped; on_close is not called.
  void Close();
  // Closes the socket once every queued message has been sent.
  void CloseWhenSent();
  bool open() const { return open_; }
  asio::ip::tcp::socket& socket() { return socket_; }

 private:
  void ReadNext();
  void WriteNext();
  void End(const std::string& error);

  asio::ip::tcp::socket socket_;
  asio::streambuf in_;
  std::deque<std::string> out_;
  bool open_ = true;
  bool close_when_sent_ = false;
  OnMessage on_message_;
  OnClose on_close_;
};

// Marks a socket's packets with IP_TOS `tos` (the top six bits are the DSCP). Throws
// std::system_error if the kernel refuses.
void MarkSocket(int fd, int tos);
// The IP_TOS a socket's packets are marked with now.
int SocketTos(int fd);

}  // namespace slotflow
