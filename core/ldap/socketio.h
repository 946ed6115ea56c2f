#pragma once

#include <QString>

#include <cstdint>
#include <sys/types.h>
#include <vector>

// The socket side of LdapSession's I/O layer (LdapSession plugs it into libldap's Sockbuf as a Sockbuf_IO layer
// between TLS and TCP; this class needs no libldap header). One per connection, used by one thread at a time.
//
// Reads: one recv() fills a read-ahead buffer from which libldap takes message after message, so a batch of
// responses costs one system call, not about four per search. recv() never blocks (MSG_DONTWAIT).
// Writes: while held (hold(), until flush()) requests are appended to a buffer, and flush() sends the batch with
// one send(); unheld writes go out at once, after anything still buffered, so the order on the wire is kept.
// dataReady() tells libldap whether reading can make progress without poll(): bytes are buffered, or the owner
// said the socket is readable (markReadable(), from epoll) and no short read has drained it since.
class SocketIo
{
public:
    SocketIo();
    void attach(int fd); // a new connection: buffers emptied, counters kept
    void detach();

    // libldap's read: -1 with errno EAGAIN when nothing came (within waitMs(), see setWaitMs()).
    ssize_t read(void* buf, size_t len);
    ssize_t write(const void* buf, size_t len);
    bool dataReady() const { return m_inPos < m_inEnd || m_readable; }
    void markReadable() { m_readable = true; }

    // How long a read that finds nothing, and an unheld write that finds the socket full, wait (poll) before
    // giving up with EAGAIN: the network timeout during a TLS handshake (libldap's own non-blocking handshake
    // spins on EAGAIN inside GnuTLS, dozens of read() per connection), the operation timeout for synchronous
    // use, 0 for the load generator's event loop (never block).
    void setWaitMs(int ms) { m_waitMs = ms; }

    void hold() { m_hold = true; }
    // Sends what is held. 0: all sent; 1: part left (the socket's buffer is full; retried on the next flush);
    // -1: the connection failed (errno set).
    int flush();
    void discardHeld() { m_outLen = m_outSent = 0, m_hold = false; } // at the end: never send what is held

    // SO_RCVLOWAT: the kernel reports the socket readable (and wakes the thread) only once this many bytes
    // are waiting. Cached: a system call only when the value changes.
    void setReceiveLowWater(int bytes);
    int receiveLowWater() const { return m_lowWater; }

    uint64_t bytesReceived() const { return m_bytesIn; }

    // TCP connect time to an ldap[s]:// URI's host:port on a socket of our own (libldap does not expose it
    // separately); -1 on failure or for ldapi://.
    static double tcpConnectMs(const QString& uri, int timeoutMs);

private:
    int m_fd = -1;
    std::vector<char> m_in;
    size_t m_inPos = 0, m_inEnd = 0;
    bool m_readable = false;
    std::vector<char> m_out;
    size_t m_outLen = 0, m_outSent = 0;
    bool m_hold = false;
    int m_waitMs = 0;
    int m_lowWater = 1;
    uint64_t m_bytesIn = 0;
};
