#include "ui/models/keyring.h"

#include <qt6keychain/keychain.h>

namespace {

QString describe(const QKeychain::Job* job)
{
    const QString detail = job->errorString().isEmpty() ? Keyring::tr("no detail") : job->errorString();
    switch (job->error()) {
    case QKeychain::EntryNotFound:
        return Keyring::tr("the keyring has no password for this profile");
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return Keyring::tr("the keyring refused access (%1)").arg(detail);
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        return Keyring::tr("no OS keyring is available (%1)").arg(detail);
    default:
        return Keyring::tr("the OS keyring is not available — is a Secret Service (GNOME Keyring, KWallet) "
                           "running? (%1)")
            .arg(detail);
    }
}

// No parent: a job deletes itself when it finished (a backend may still call back into a job deleted earlier);
// answers go through a connection to the Keyring, dropped if the Keyring is gone by then.
template <typename J> J* makeJob(const QString& key)
{
    auto* job = new J(Keyring::service());
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never the plaintext fallback (DESIGN.md)
    job->setKey(key);
    return job;
}

} // namespace

Keyring::Keyring(QObject* parent)
    : QObject(parent)
{ }

QString Keyring::service()
{
    return QStringLiteral("DirBench");
}

void Keyring::store(const QString& key, const QByteArray& secret)
{
    auto* job = makeJob<QKeychain::WritePasswordJob>(key);
    job->setBinaryData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, key](QKeychain::Job* j) {
        if (j->error() == QKeychain::NoError)
            emit stored(key);
        else
            emit failed(key, describe(j), false);
    });
    job->start();
}

void Keyring::read(const QString& key)
{
    auto* job = makeJob<QKeychain::ReadPasswordJob>(key);
    connect(job, &QKeychain::Job::finished, this, [this, key](QKeychain::Job* j) {
        if (j->error() == QKeychain::NoError)
            emit readDone(key, static_cast<QKeychain::ReadPasswordJob*>(j)->binaryData());
        else
            emit failed(key, describe(j), j->error() == QKeychain::EntryNotFound);
    });
    job->start();
}

void Keyring::remove(const QString& key)
{
    auto* job = makeJob<QKeychain::DeletePasswordJob>(key);
    connect(job, &QKeychain::Job::finished, this, [this, key](QKeychain::Job* j) {
        if (j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound)
            emit removed(key);
        else
            emit failed(key, describe(j), false);
    });
    job->start();
}
