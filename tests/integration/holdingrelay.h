#pragma once

#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

// A TCP relay on 127.0.0.1 in front of a server, on a thread (and event loop) of its own: every accepted connection
// is forwarded both ways, except the one accepted as number `holdIndex` (1 = the first), which is connected to the
// server only `holdMs` after it was accepted: its client's bytes wait in the relay until then. A client whose connect
// needs an answer (a TLS handshake) is held that long; the others go through at once.
class HoldingRelay
{
public:
    HoldingRelay(quint16 upstreamPort, int holdIndex, int holdMs)
        : m_upstream(upstreamPort)
        , m_holdIndex(holdIndex)
        , m_holdMs(holdMs)
    {
        m_ctx = std::make_unique<QObject>();
        m_ctx->moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            m_ctx.get(), [this] { listen(); }, Qt::BlockingQueuedConnection);
    }
    ~HoldingRelay()
    {
        QObject* ctx = m_ctx.release();
        QMetaObject::invokeMethod(
            ctx, [ctx] { delete ctx; }, Qt::BlockingQueuedConnection); // sockets with it
        m_thread.quit();
        m_thread.wait();
    }
    HoldingRelay(const HoldingRelay&) = delete;
    HoldingRelay& operator=(const HoldingRelay&) = delete;

    quint16 port() const { return m_port; }
    int accepted() const { return m_accepted.load(); }
    bool held() const { return m_held.load(); } // the held connection was accepted and its hold is over

private:
    void listen()
    {
        auto* server = new QTcpServer(m_ctx.get());
        server->listen(QHostAddress::LocalHost, 0);
        m_port = server->serverPort();
        QObject::connect(server, &QTcpServer::newConnection, m_ctx.get(), [this, server] {
            while (QTcpSocket* client = server->nextPendingConnection()) {
                const int index = ++m_accepted;
                if (index != m_holdIndex) {
                    forward(client);
                    continue;
                }
                QTimer::singleShot(m_holdMs, m_ctx.get(), [this, c = QPointer<QTcpSocket>(client)] {
                    m_held = true;
                    if (c)
                        forward(c);
                });
            }
        });
    }

    void forward(QTcpSocket* client)
    {
        auto* up = new QTcpSocket(m_ctx.get());
        const QPointer<QTcpSocket> c(client), u(up);
        QObject::connect(up, &QTcpSocket::connected, m_ctx.get(), [c, u] {
            if (c && u && c->bytesAvailable() > 0)
                u->write(c->readAll());
        });
        QObject::connect(client, &QTcpSocket::readyRead, m_ctx.get(), [c, u] {
            if (c && u && u->state() == QAbstractSocket::ConnectedState)
                u->write(c->readAll());
        });
        QObject::connect(up, &QTcpSocket::readyRead, m_ctx.get(), [c, u] {
            if (c && u)
                c->write(u->readAll());
        });
        auto close = [c, u] {
            if (c)
                c->disconnectFromHost(), c->deleteLater();
            if (u)
                u->disconnectFromHost(), u->deleteLater();
        };
        QObject::connect(client, &QTcpSocket::disconnected, m_ctx.get(), close);
        QObject::connect(up, &QTcpSocket::disconnected, m_ctx.get(), close);
        QObject::connect(up, &QTcpSocket::errorOccurred, m_ctx.get(), close);
        up->connectToHost(QHostAddress::LocalHost, m_upstream);
    }

    const quint16 m_upstream;
    const int m_holdIndex;
    const int m_holdMs;
    quint16 m_port = 0;
    std::atomic<int> m_accepted { 0 };
    std::atomic<bool> m_held { false };
    QThread m_thread;
    std::unique_ptr<QObject> m_ctx; // lives on m_thread: the server and every socket are its children
};
