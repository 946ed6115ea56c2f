#include "core/ldap/socketio.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QUrl>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
constexpr size_t kReadAhead = 64 * 1024; // a few hundred search results, or dozens of whole entries

bool waitFor(int fd, short events, int ms)
{
    pollfd p { fd, events, 0 };
    int n;
    do
        n = ::poll(&p, 1, ms);
    while (n < 0 && errno == EINTR);
    return n > 0;
}
} // namespace

SocketIo::SocketIo()
{
    m_out.reserve(16 * 1024);
}

void SocketIo::attach(int fd)
{
    m_fd = fd;
    if (m_in.size() != kReadAhead)
        m_in.resize(kReadAhead);
    m_inPos = m_inEnd = 0;
    m_readable = false;
    m_outLen = m_outSent = 0;
    m_hold = false;
    m_lowWater = 1; // the kernel's default for a new socket
}

void SocketIo::detach()
{
    m_fd = -1;
    m_inPos = m_inEnd = 0;
    m_readable = false;
    m_outLen = m_outSent = 0;
    m_hold = false;
}

ssize_t SocketIo::read(void* buf, size_t len)
{
    auto* out = static_cast<char*>(buf);
    size_t copied = 0;
    if (m_inPos < m_inEnd) {
        copied = std::min(len, m_inEnd - m_inPos);
        std::memcpy(out, m_in.data() + m_inPos, copied);
        m_inPos += copied;
        if (m_inPos < m_inEnd || copied == len)
            return ssize_t(copied);
        // The buffer ended inside the caller's message: go on reading only if the socket may hold more
        // (a short read drained it, and epoll will say when the rest arrives).
        if (!m_readable)
            return ssize_t(copied);
    }
    m_inPos = m_inEnd = 0;
    const bool direct = len - copied >= m_in.size(); // a big message body: straight into the caller's buffer
    char* dst = direct ? out + copied : m_in.data();
    const size_t cap = direct ? len - copied : m_in.size();
    ssize_t n;
    bool waited = false;
    for (;;) {
        n = ::recv(m_fd, dst, cap, MSG_DONTWAIT);
        if (n >= 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
            break;
        if (errno == EINTR)
            continue;
        if (waited || m_waitMs <= 0 || copied || !waitFor(m_fd, POLLIN, m_waitMs)) {
            errno = EAGAIN;
            break;
        }
        waited = true;
    }
    if (n <= 0) {
        m_readable = false;
        return copied ? ssize_t(copied) : n; // 0: end of stream; -1: errno (EAGAIN when nothing is there)
    }
    m_bytesIn += uint64_t(n);
    m_readable = size_t(n) == cap; // a short read drained the socket
    if (direct)
        return ssize_t(copied) + n;
    m_inEnd = size_t(n);
    const size_t more = std::min(len - copied, m_inEnd);
    std::memcpy(out + copied, m_in.data(), more);
    m_inPos = more;
    if (m_inPos == m_inEnd)
        m_inPos = m_inEnd = 0;
    return ssize_t(copied + more);
}

ssize_t SocketIo::write(const void* buf, size_t len)
{
    if (m_out.size() < m_outLen + len)
        m_out.resize(std::max(m_out.size() * 2, m_outLen + len));
    std::memcpy(m_out.data() + m_outLen, buf, len);
    m_outLen += len;
    if (m_hold)
        return ssize_t(len);
    int rc;
    while ((rc = flush()) > 0 && m_waitMs > 0)
        if (!waitFor(m_fd, POLLOUT, m_waitMs))
            break; // kept, in order, for the next write or flush
    return rc < 0 ? -1 : ssize_t(len);
}

int SocketIo::flush()
{
    while (m_outSent < m_outLen) {
        const ssize_t n = ::send(m_fd, m_out.data() + m_outSent, m_outLen - m_outSent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 1; // kept, in order, for the next flush
            return -1;
        }
        m_outSent += size_t(n);
    }
    m_outLen = m_outSent = 0;
    m_hold = false;
    return 0;
}

void SocketIo::setReceiveLowWater(int bytes)
{
    bytes = std::max(1, bytes);
    if (bytes == m_lowWater || m_fd < 0)
        return;
    if (::setsockopt(m_fd, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof bytes) == 0)
        m_lowWater = bytes;
}

double SocketIo::tcpConnectMs(const QString& uri, int timeoutMs)
{
    const QUrl url(uri);
    if (url.scheme().compare(QLatin1String("ldapi"), Qt::CaseInsensitive) == 0)
        return -1;
    const bool ldaps = url.scheme().compare(QLatin1String("ldaps"), Qt::CaseInsensitive) == 0;
    const QString host = url.host();
    const int port = url.port(ldaps ? 636 : 389);
    addrinfo hints {};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (getaddrinfo(host.toUtf8().constData(), QByteArray::number(port).constData(), &hints, &res) != 0 || !res)
        return -1;
    double ms = -1;
    const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        timeval tv { timeoutMs / 1000, (timeoutMs % 1000) * 1000 };
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        QElapsedTimer t;
        t.start();
        if (::connect(fd, res->ai_addr, res->ai_addrlen) == 0)
            ms = double(t.nsecsElapsed()) / 1e6;
        ::close(fd);
    }
    freeaddrinfo(res);
    return ms;
}
