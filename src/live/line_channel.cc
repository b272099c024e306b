#include "live/line_channel.h"

#include <netinet/in.h>
#include <netinet/ip.h>
#include <sys/socket.h>

#include <cerrno>
#include <istream>
#include <system_error>

namespace slotflow {

// A line longer than this is not a message: the read stops instead of growing without bound.
constexpr size_t kMaxLine = size_t{1} << 20;

LineChannel::LineChannel(asio::ip::tcp::socket socket)
    : socket_(std::move(socket)), in_(kMaxLine) {}

void LineChannel::Start(OnMessage on_message, OnClose on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
  ReadNext();
}

void LineChannel::Rebind(OnMessage on_message, OnClose on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
}

void LineChannel::ReadNext() {
  asio::async_read_until(
      socket_, in_, '\n', [self = shared_from_this()](std::error_code ec, size_t n) {
        if (!self->open_) return;
        if (ec) {
          self->End(ec == asio::error::eof ? "" : ec.message());
          return;
        }
        std::string line(n, '\0');
        std::istream(&self->in_).read(line.data(), static_cast<std::streamsize>(n));
        ControlMessage m;
        try {
          m = Decode(line);
        } catch (const ProtocolError& e) {
          self->End(std::string("bad message: ") + e.what());
          return;
        }
        const OnMessage handler = self->on_message_;  // it may Rebind
        handler(m);
        if (self->open_) self->ReadNext();
      });
}

void LineChannel::Send(const ControlMessage& m) {
  if (!open_) return;
  out_.push_back(Encode(m));
  if (out_.size() == 1) WriteNext();
}

void LineChannel::WriteNext() {
  asio::async_write(socket_, asio::buffer(out_.front()),
                    [self = shared_from_this()](std::error_code ec, size_t) {
                      if (!self->open_) return;
                      if (ec) {
                        self->End(ec.message());
                        return;
                      }
                      self->out_.pop_front();
                      if (!self->out_.empty()) {
                        self->WriteNext();
                      } else if (self->close_when_sent_) {
                        self->Close();
                      }
                    });
}

void LineChannel::End(const std::string& error) {
  Close();
  const OnClose handler = on_close_;
  if (handler) handler(error);
}

void LineChannel::CloseWhenSent() {
  close_when_sent_ = true;
  if (out_.empty()) Close();
}

void LineChannel::Close() {
  if (!open_) return;
  open_ = false;
  out_.clear();
  std::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

void MarkSocket(int fd, int tos) {
  if (setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof tos) != 0) {
    throw std::system_error(errno, std::generic_category(), "setsockopt(IP_TOS)");
  }
}

int SocketTos(int fd) {
  int tos = 0;
  socklen_t len = sizeof tos;
  if (getsockopt(fd, IPPROTO_IP, IP_TOS, &tos, &len) != 0) {
    throw std::system_error(errno, std::generic_category(), "getsockopt(IP_TOS)");
  }
  return tos;
}

}  // namespace slotflow
