#include "core/replay/replaywrites.h"

#include <QSet>

namespace {

constexpr int kNoSuchObject = 32;

} // namespace

std::optional<ReplayWrites::Attributes> ReplayWrites::read(LdapSession& s, const QString& dn, ProbeError* error)
{
    QList<LdapSession::Entry> found;
    const ProbeError e
        = s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("*") }, &found);
    if (e.isError()) {
        if (e.nativeCode != kNoSuchObject)
            *error = e;
        return std::nullopt;
    }
    if (found.isEmpty())
        return std::nullopt;
    return found.constFirst().attributes;
}

ProbeError ReplayWrites::snapshot(LdapSession& session, const std::vector<QByteArray>& dns)
{
    for (const QByteArray& dn : dns) {
        ProbeError e;
        const QString d = QString::fromUtf8(dn);
        auto attrs = read(session, d, &e);
        if (e.isError())
            return e;
        m_before.emplace_back(d, std::move(attrs));
    }
    return {};
}

QString ReplayWrites::restoreOne(LdapSession& s, const QString& dn, const std::optional<Attributes>& before)
{
    ProbeError e;
    const auto now = read(s, dn, &e);
    if (e.isError())
        return dn + QStringLiteral(": could not be read back: ") + e.message();
    if (!before) {
        if (!now)
            return {};
        const ProbeError r = s.remove(dn);
        return r.isError() ? dn + QStringLiteral(" (made by the replay) could not be removed: ") + r.message()
                           : QString();
    }
    if (!now) {
        QList<LdapSession::Attribute> attrs;
        for (auto it = before->begin(); it != before->end(); ++it)
            attrs.append({ it.key(), it.value() });
        const ProbeError r = s.add(dn, attrs);
        return r.isError() ? dn + QStringLiteral(" (deleted by the replay) could not be added back: ") + r.message()
                           : QString();
    }
    QSet<QString> names;
    for (auto it = before->begin(); it != before->end(); ++it)
        names.insert(it.key());
    for (auto it = now->begin(); it != now->end(); ++it)
        names.insert(it.key());
    for (const QString& a : std::as_const(names)) {
        const QList<QByteArray> old = before->value(a), cur = now->value(a);
        if (old == cur)
            continue;
        const ProbeError r = s.modifyReplace(dn, a, old);
        if (r.isError())
            return dn + QStringLiteral(": ") + a + QStringLiteral(" could not be restored: ") + r.message();
    }
    return {};
}

ReplayWrites::Outcome ReplayWrites::restore(
    LdapSession& s, const std::vector<QByteArray>& added, const QString& writeBase, const QString& runTag) const
{
    Outcome out;
    QSet<QString> gone;
    // Added first: an entry the log deleted and added again is put back from its snapshot below.
    QList<LdapSession::Entry> left;
    const QString pattern = QStringLiteral("(uid=dirbench-replay-") + runTag + QStringLiteral("-*)");
    if (!writeBase.isEmpty())
        s.search(writeBase, LdapSession::OneLevel, pattern, { QStringLiteral("1.1") }, &left);
    QStringList toRemove;
    for (const QByteArray& dn : added)
        toRemove << QString::fromUtf8(dn);
    for (const auto& e : std::as_const(left))
        toRemove << e.dn;
    for (const QString& dn : std::as_const(toRemove)) {
        if (gone.contains(dn.toLower()))
            continue;
        gone.insert(dn.toLower());
        const bool snapshotted = std::any_of(m_before.begin(), m_before.end(),
            [&](const auto& b) { return b.first.compare(dn, Qt::CaseInsensitive) == 0; });
        if (snapshotted)
            continue;
        const ProbeError r = s.remove(dn);
        if (!r.isError())
            ++out.removed;
        else if (r.nativeCode != kNoSuchObject)
            out.failures << dn + QStringLiteral(" (added by the replay) could not be removed: ") + r.message();
    }
    for (const auto& [dn, before] : m_before) {
        const QString failure = restoreOne(s, dn, before);
        if (failure.isEmpty())
            ++out.restored;
        else
            out.failures << failure;
    }
    return out;
}
