#include "core/sizing/openldapsizing.h"

#include <cmath>

namespace OpenLdapSizing {

namespace {

using SizingText::num;
constexpr auto used = SizingText::input;

} // namespace

QString source()
{
    return QStringLiteral("slapd-mdb(5) (maxsize, searchstack; https://man7.org/linux/man-pages/man5/slapd-mdb.5.html, "
                          "openldap doc/man/man5/slapd-mdb.5)");
}

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error)
{
    SizingResult r;
    r.server = QStringLiteral("openldap");
    double dataMb = 0;
    QString dataOrigin;
    if (in.dbSizeMb) {
        dataMb = *in.dbSizeMb;
        dataOrigin = in.originOf(QStringLiteral("db_size_mb"));
    } else if (in.ldifTotalEntryBytes) {
        dataMb = *in.ldifTotalEntryBytes / 1e6;
        dataOrigin = QStringLiteral("ldif");
        r.addWarning(QStringLiteral("estimate"),
            QStringLiteral("data.mdb estimated from the LDIF's entry bytes: a lower bound (indexes and free pages "
                           "come on top); give the size of data.mdb for an exact figure"));
    } else {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("db-size-mb"),
                QStringLiteral("give %1 (the size of data.mdb) or %2")
                    .arg(ProbeError::ref(QStringLiteral("db-size-mb")), ProbeError::ref(QStringLiteral("ldif"))));
        return std::nullopt;
    }
    const int threads = in.threads.value_or(kDefaultThreads);
    const QString threadsOrigin = in.threads ? in.originOf(QStringLiteral("threads")) : QStringLiteral("default");

    Recommendation ms;
    ms.name = QStringLiteral("olcDbMaxSize");
    ms.unit = QStringLiteral("MB");
    ms.value = dataMb * (1 + in.growth) * in.safety;
    ms.formula = QStringLiteral("maxsize = data.mdb × (1 + growth) × safety");
    ms.computation
        = QStringLiteral("%1 × %2 × %3 = %4 MB").arg(num(dataMb), num(1 + in.growth), num(in.safety), num(ms.value));
    ms.inputs << used("data_mdb_mb", dataMb, "MB", dataOrigin)
              << used("growth", in.growth, "", in.originOf(QStringLiteral("growth")))
              << used("safety", in.safety, "", in.originOf(QStringLiteral("safety")));
    ms.source = source();
    ms.note = QStringLiteral("the map size caps the database: writes fail with MDB_MAP_FULL beyond it; it can be "
                             "raised later");
    ms.apply = QStringLiteral("olcDbMaxSize: %1").arg(SizingText::mbToBytes(ms.value));
    // An LMDB map is address space, not memory: a larger map than needed costs nothing, so it is never lowered.
    ms.compareWithCurrent(in.currentMapMb);
    const qint64 maxBytes = SizingText::mbToBytes(ms.value);

    Recommendation th;
    th.name = QStringLiteral("olcThreads");
    th.unit = QStringLiteral("threads");
    th.value = threads;
    th.formula = in.threads ? QStringLiteral("threads as given") : QStringLiteral("slapd's default thread pool");
    th.computation = QString::number(threads);
    th.inputs << used("threads", threads, "threads", threadsOrigin);
    th.source = QStringLiteral("slapd.conf(5) / slapd-config(5): threads, default 16");
    th.apply = QStringLiteral("olcThreads: %1").arg(threads);
    th.compareWithCurrent(in.currentThreads.has_value() ? std::optional<double>(*in.currentThreads) : std::nullopt,
        QStringLiteral("the threads as given (or slapd's default); more threads than CPUs only queue"));

    Recommendation ram;
    ram.name = QStringLiteral("total RAM");
    ram.isSetting = false;
    ram.unit = QStringLiteral("MB");
    const double stackMb = threads * kSearchStackMbPerThread;
    ram.value = dataMb + stackMb + in.osReserveMb;
    ram.formula = QStringLiteral("RAM = data.mdb + threads × 8 MiB (searchstack) + OS reserve");
    ram.computation = QStringLiteral("%1 + %2 × 8.388608 + %3 = %4 MB")
                          .arg(num(dataMb))
                          .arg(threads)
                          .arg(num(in.osReserveMb), num(ram.value));
    ram.inputs << used("data_mdb_mb", dataMb, "MB", dataOrigin) << used("threads", threads, "threads", threadsOrigin)
               << used("os_reserve_mb", in.osReserveMb, "MB", in.originOf(QStringLiteral("os_reserve_mb")));
    ram.source = source();
    ram.note = QStringLiteral("the whole of data.mdb in the page cache; the working set alone is the floor");

    r.recommendations << ms << th << ram;
    r.terms = QJsonObject { { QStringLiteral("total_ram_mb"), ram.value }, { QStringLiteral("data_mdb_mb"), dataMb },
        { QStringLiteral("threads"), threads }, { QStringLiteral("searchstack_mb"), stackMb },
        { QStringLiteral("os_reserve_mb"), in.osReserveMb }, { QStringLiteral("maxsize_mb"), ms.value },
        { QStringLiteral("maxsize_bytes"), double(maxBytes) }, { QStringLiteral("formula"), ram.formula },
        { QStringLiteral("computation"), ram.computation } };

    QStringList a;
    a << QStringLiteral("# OpenLDAP back-mdb: review, then apply with ldapmodify -Y EXTERNAL -H ldapi:///")
      << QStringLiteral("# (find your database's DN: ldapsearch -Y EXTERNAL -H ldapi:/// -b cn=config "
                        "'(olcDatabase=*mdb)' dn)");
    QStringList mdb;
    if (!ms.apply.isEmpty())
        mdb << QStringLiteral("replace: olcDbMaxSize") << ms.apply;
    if (!in.ldifIndexCandidates.isEmpty()) {
        if (!mdb.isEmpty())
            mdb << QStringLiteral("-");
        mdb << QStringLiteral("add: olcDbIndex");
        for (const auto& c : in.ldifIndexCandidates)
            mdb << QStringLiteral("olcDbIndex: %1 %2").arg(c.first, c.second);
    }
    if (ms.apply.isEmpty())
        a << QStringLiteral("# olcDbMaxSize stays at %1: the map now is larger than needed").arg(maxBytes);
    if (!mdb.isEmpty())
        a << QStringLiteral("dn: olcDatabase={1}mdb,cn=config") << QStringLiteral("changetype: modify") << mdb;
    a << QString() << QStringLiteral("dn: cn=config") << QStringLiteral("changetype: modify")
      << QStringLiteral("replace: olcThreads") << th.apply << QString()
      << QStringLiteral(
             "# slapd.conf equivalent: 'threads %1' in the global section, 'maxsize %2' after 'database mdb'")
             .arg(threads)
             .arg(maxBytes);
    if (!in.ldifIndexCandidates.isEmpty())
        a << QStringLiteral("# index lines from the LDIF's index candidates; an index already present makes "
                            "ldapmodify fail with 'value exists': drop those lines");
    r.apply = a.join(u'\n') + u'\n';
    r.applyFormat = QStringLiteral("ldif (cn=config)");
    return r;
}

} // namespace OpenLdapSizing
