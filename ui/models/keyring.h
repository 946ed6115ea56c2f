#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

// The OS keyring (Secret Service, KWallet, ...) through QtKeychain, never its plaintext fallback. Every call is
// asynchronous and answers with one signal. Where no keyring is available (no Secret Service, as on CI) the
// answer is failed() with a sentence that says so; callers go on without it.
class Keyring final : public QObject
{
    Q_OBJECT
public:
    explicit Keyring(QObject* parent = nullptr);
    Q_DISABLE_COPY_MOVE(Keyring)

    static QString service(); // "DirBench"

    void store(const QString& key, const QByteArray& secret);
    void read(const QString& key);
    void remove(const QString& key);

signals:
    void stored(const QString& key);
    void readDone(const QString& key, const QByteArray& secret);
    void removed(const QString& key);
    // What went wrong, as a sentence; notFound when the key simply has no entry.
    void failed(const QString& key, const QString& message, bool notFound);
};
