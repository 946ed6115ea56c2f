#include "core/replay/replayspec.h"

#include "core/ldap/ldapsession.h"
#include "core/ldap/valuepattern.h"
#include "core/workload/workload.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <array>
#include <sys/stat.h>

namespace {

bool hasNamedBind(const Workload& w)
{
    for (const auto& c : w.connections)
        for (const auto& op : c.ops)
            if (op.kind == WorkloadOpKind::Bind && !op.base.isEmpty())
                return true;
    return false;
}

bool hasValues(const Workload& w)
{
    for (const auto& c : w.connections)
        for (const auto& op : c.ops)
            if (!op.values.isEmpty())
                return true;
    return false;
}

ProbeError validateOptions(const ReplaySpec& s)
{
    if (s.workloadPath.isEmpty() == s.logFiles.isEmpty())
        return ProbeError::invalid(QStringLiteral("workload"),
            s.workloadPath.isEmpty() ? QStringLiteral("required: --workload W.dbwl or --log FILE")
                                     : QStringLiteral("not with --log: one source of operations"));
    if (s.timing == ReplaySpec::Timing::Speed && !(s.speed > 0 && s.speed <= 1000))
        return ProbeError::invalid(QStringLiteral("speed"), QStringLiteral("must be more than 0 and at most 1000"));
    if (!s.passwordsFile.isEmpty() && !s.sharedPasswordFile.isEmpty())
        return ProbeError::invalid(QStringLiteral("passwords"),
            QStringLiteral("not with --shared-password-file: one source of bind passwords"));
    if (s.allowWrites && s.writeBase.isEmpty())
        return ProbeError::invalid(QStringLiteral("write-base"),
            QStringLiteral("required with --allow-writes: the DN under which the logged writes are replayed"));
    if (!s.allowWrites && !s.writeBase.isEmpty())
        return ProbeError::invalid(QStringLiteral("allow-writes"),
            QStringLiteral("required with --write-base (writes are replayed only when allowed)"));
    if (!s.writeBase.isEmpty() && (s.writeBase.trimmed().isEmpty() || !LdapSession::isDn(s.writeBase)))
        return ProbeError::invalid(QStringLiteral("write-base"), u'\'' + s.writeBase + QStringLiteral("' is not a DN"));
    if (!(s.durationSec >= 0 && s.durationSec <= 7 * 86400))
        return ProbeError::invalid(QStringLiteral("duration"), QStringLiteral("must be from 0 to 604800 seconds"));
    if (!(s.intervalSec >= 0.1 && s.intervalSec <= 3600))
        return ProbeError::invalid(QStringLiteral("interval"), QStringLiteral("must be from 0.1 to 3600 seconds"));
    if (s.threads < 1 || s.threads > 64)
        return ProbeError::invalid(QStringLiteral("threads"), QStringLiteral("must be from 1 to 64"));
    if (s.values == ReplaySpec::Values::Log && !s.keySpace.isEmpty())
        return ProbeError::invalid(
            QStringLiteral("key-space"), QStringLiteral("only with --values mapped (the logged values are sent)"));
    if (s.seed && s.timing != ReplaySpec::Timing::Speed)
        return ProbeError::invalid(QStringLiteral("seed"),
            s.timing == ReplaySpec::Timing::RateProfile
                ? QStringLiteral("not with --rate-profile, which spreads each second's operations evenly")
                : QStringLiteral("not with --as-fast-as-possible: there are no times to spread"));
    if (!s.keySpace.isEmpty()) {
        ProbeError e;
        if (!ReplayKeySpace::parse(s.keySpace, &e))
            return e;
    }
    return {};
}

} // namespace

QString ReplaySpec::timingName(Timing t)
{
    switch (t) {
    case Timing::Speed:
        return QStringLiteral("speed");
    case Timing::RateProfile:
        return QStringLiteral("rate-profile");
    case Timing::AsFastAsPossible:
        break;
    }
    return QStringLiteral("as-fast-as-possible");
}

QString ReplaySpec::valuesName(Values v)
{
    return v == Values::Log ? QStringLiteral("log") : QStringLiteral("mapped");
}

QString ReplaySpec::passwordSource() const
{
    if (!sharedPasswordFile.isEmpty())
        return QStringLiteral("shared-password-file");
    if (!passwordsFile.isEmpty())
        return QStringLiteral("passwords-file");
    return QStringLiteral("none");
}

ProbeError ReplaySpec::validate(const Workload* w) const
{
    if (ProbeError e = validateOptions(*this); e.isError())
        return e;
    if (!w)
        return {};
    if (values == Values::Log && !w->valuesKept)
        return ProbeError::invalid(QStringLiteral("values"),
            QStringLiteral("log: this workload kept no values (it is anonymised): use --values mapped --key-space "
                           "PATTERN"));
    if (values == Values::Mapped && keySpace.isEmpty() && hasValues(*w))
        return ProbeError::invalid(QStringLiteral("key-space"),
            QStringLiteral("required with --values mapped: the target's keys, e.g. uid=user[0-99999]"));
    if (seed && !w->secondTimestamps())
        return ProbeError::invalid(QStringLiteral("seed"),
            QStringLiteral("this workload's times are finer than a second: nothing is spread, no seed applies"));
    if (hasNamedBind(*w) && passwordsFile.isEmpty() && sharedPasswordFile.isEmpty())
        return ProbeError::invalid(QStringLiteral("shared-password-file"),
            QStringLiteral("the workload binds, and logs carry no passwords: give --shared-password-file FILE "
                           "(one password for every DN) or --passwords FILE (DN<TAB>password lines, mode 0600)"));
    return {};
}

QJsonObject ReplaySpec::toJson() const
{
    QJsonObject o { { QStringLiteral("target"), target.toJson() }, { QStringLiteral("timing"), timingName(timing) },
        { QStringLiteral("values"), valuesName(values) }, { QStringLiteral("passwords"), passwordSource() },
        { QStringLiteral("allow_writes"), allowWrites }, { QStringLiteral("interval_s"), intervalSec },
        { QStringLiteral("threads"), threads }, { QStringLiteral("dry_run"), dryRun } };
    if (timing == Timing::Speed)
        o.insert(QStringLiteral("speed"), speed);
    if (!workloadPath.isEmpty())
        o.insert(QStringLiteral("workload"), workloadPath);
    if (!logFiles.isEmpty())
        o.insert(QStringLiteral("log"), QJsonArray::fromStringList(logFiles));
    if (!keySpace.isEmpty())
        o.insert(QStringLiteral("key_space"), keySpace);
    if (!writeBase.isEmpty())
        o.insert(QStringLiteral("write_base"), writeBase);
    if (seed)
        o.insert(QStringLiteral("seed"), QString::number(*seed)); // a string: a double loses 64-bit seeds
    o.insert(QStringLiteral("duration_s"), durationSec > 0 ? QJsonValue(durationSec) : QJsonValue(QJsonValue::Null));
    return o;
}

std::optional<ReplayPasswords> ReplayPasswords::sharedFromFile(const QString& path, ProbeError* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = ProbeError::invalid(
            QStringLiteral("shared-password-file"), path + QStringLiteral(" cannot be read: ") + f.errorString());
        return std::nullopt;
    }
    QByteArray line = f.readLine(4096);
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    return shared(line);
}

std::optional<ReplayPasswords> ReplayPasswords::fromFile(const QString& path, ProbeError* error)
{
    const QString field = QStringLiteral("passwords");
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode)) {
        *error = ProbeError::invalid(field, path + QStringLiteral(" is not a readable file"));
        return std::nullopt;
    }
    if ((st.st_mode & 077) != 0) {
        *error = ProbeError::invalid(field,
            path
                + QStringLiteral(" is readable by others (mode %1): chmod 600 it")
                      .arg(QString::number(st.st_mode & 0777, 8)));
        return std::nullopt;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = ProbeError::invalid(field, path + QStringLiteral(" cannot be read: ") + f.errorString());
        return std::nullopt;
    }
    ReplayPasswords out;
    int lineNo = 0;
    while (!f.atEnd()) {
        QByteArray line = f.readLine();
        ++lineNo;
        while (line.endsWith('\n') || line.endsWith('\r'))
            line.chop(1);
        if (line.trimmed().isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype tab = line.indexOf('\t');
        if (tab <= 0) {
            *error = ProbeError::invalid(field, path + QStringLiteral(": line %1: not DN<TAB>password").arg(lineNo));
            return std::nullopt;
        }
        out.m_byDn.insert(QString::fromUtf8(line.left(tab)).trimmed().toLower(), line.mid(tab + 1));
    }
    return out;
}

ReplayPasswords ReplayPasswords::shared(const QByteArray& password)
{
    ReplayPasswords out;
    out.m_shared = password;
    return out;
}

std::optional<QByteArray> ReplayPasswords::forDn(const QString& dn) const
{
    if (m_shared)
        return m_shared;
    const auto it = m_byDn.constFind(dn.trimmed().toLower());
    if (it == m_byDn.constEnd())
        return std::nullopt;
    return *it;
}

std::optional<ReplayKeySpace> ReplayKeySpace::parse(const QString& text, ProbeError* error)
{
    const QString field = QStringLiteral("key-space");
    const qsizetype eq = text.indexOf(u'=');
    ReplayKeySpace k;
    k.attr = text.left(eq).trimmed().toLower();
    const bool attrOk = eq > 0
        && std::all_of(k.attr.begin(), k.attr.end(), [](QChar c) { return c.isLetterOrNumber() || c == u'-'; });
    if (!attrOk) {
        *error = ProbeError::invalid(
            field, u'\'' + text + QStringLiteral("' is not ATTR=PATTERN[,PARENT], e.g. uid=user[0-99999]"));
        return std::nullopt;
    }
    // The value runs to the first comma outside a range (an escaped comma stays in the value).
    qsizetype end = eq + 1;
    for (int depth = 0; end < text.size(); ++end) {
        const QChar c = text.at(end);
        if (c == u'\\') {
            ++end;
            continue;
        }
        depth += c == u'[' ? 1 : c == u']' ? -1 : 0;
        if (c == u',' && depth <= 0)
            break;
    }
    k.valueText = text.mid(eq + 1, end - eq - 1);
    k.parent = text.mid(end + 1).trimmed();
    ProbeError e;
    const auto pattern = ValuePattern::parse(k.valueText, field, &e);
    if (!pattern) {
        *error = e;
        return std::nullopt;
    }
    if (pattern->rangeCount() != 1) {
        *error = ProbeError::invalid(field,
            QStringLiteral("the value '") + k.valueText
                + QStringLiteral("' needs exactly one range or file, e.g. user[0-99999]"));
        return std::nullopt;
    }
    if (end < text.size() && (k.parent.isEmpty() || !LdapSession::isDn(k.parent))) {
        *error = ProbeError::invalid(field, u'\'' + k.parent + QStringLiteral("' (the parent) is not a DN"));
        return std::nullopt;
    }
    k.keys = pattern->keyCount(0);
    k.pattern = std::make_shared<const ValuePattern>(*pattern);
    return k;
}

QByteArray ReplayKeySpace::value(uint64_t key) const
{
    const std::array<uint64_t, 1> keysArr { key % std::max<uint64_t>(1, keys) };
    return pattern ? pattern->renderKeys(keysArr) : QByteArray();
}
