#include "core/sizing/adsizing.h"

#include <cmath>

namespace AdSizing {

namespace {

using SizingText::num;
constexpr auto used = SizingText::input;

} // namespace

QString source()
{
    return QStringLiteral(
        "Microsoft, Capacity planning for Active Directory Domain Services (https://learn.microsoft.com"
        "/en-us/windows-server/administration/performance-tuning/role/active-directory-server/"
        "capacity-planning-for-active-directory-domain-services); summary http://blogs."
        "metcorpconsulting.com/tech/?cat=7; WS2008 sizing https://technet.microsoft.com/en-us/"
        "library/cc268214.aspx");
}

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error)
{
    SizingResult r;
    r.server = QStringLiteral("ad");
    Recommendation ntds;
    ntds.name = QStringLiteral("NTDS.dit");
    ntds.isSetting = false;
    ntds.unit = QStringLiteral("MB");
    ntds.source = source();
    if (in.dbSizeMb) {
        ntds.value = *in.dbSizeMb;
        ntds.formula = QStringLiteral("NTDS.dit as measured");
        ntds.computation = QStringLiteral("%1 MB").arg(num(ntds.value));
        ntds.inputs << used("ntds_mb", ntds.value, "MB", in.originOf(QStringLiteral("db_size_mb")));
    } else if (in.users) {
        ntds.value = double(*in.users) * kNtdsMbPerUser;
        ntds.formula = QStringLiteral("NTDS.dit ≈ 0.4 GB per 1,000 users");
        ntds.computation = QStringLiteral("%1 × 0.4 MB = %2 MB").arg(*in.users).arg(num(ntds.value));
        ntds.inputs << used("users", double(*in.users), "users", in.originOf(QStringLiteral("users")));
        r.addWarning(QStringLiteral("estimate"),
            QStringLiteral("NTDS.dit estimated from the user count (WS2008 rule); give its size for an exact figure"));
    } else {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("db-size-mb"),
                QStringLiteral("give %1 (the size of NTDS.dit) or %2")
                    .arg(ProbeError::ref(QStringLiteral("db-size-mb")), ProbeError::ref(QStringLiteral("users"))));
        return std::nullopt;
    }

    Recommendation ram;
    ram.name = QStringLiteral("total RAM");
    ram.isSetting = false;
    ram.unit = QStringLiteral("MB");
    ram.value = in.osMb + ntds.value + in.sysvolMb;
    ram.formula = QStringLiteral("RAM = OS (2..4 GB) + NTDS.dit + SYSVOL");
    ram.computation
        = QStringLiteral("%1 + %2 + %3 = %4 MB").arg(num(in.osMb), num(ntds.value), num(in.sysvolMb), num(ram.value));
    ram.inputs << used("os_mb", in.osMb, "MB", in.originOf(QStringLiteral("os_mb")))
               << used("ntds_mb", ntds.value, "MB", ntds.inputs.first().origin)
               << used("sysvol_mb", in.sysvolMb, "MB", in.originOf(QStringLiteral("sysvol_mb")));
    ram.source = source();
    ram.note = QStringLiteral("no directory setting to change: ESE uses the free RAM; add what other services on the "
                              "DC need");
    r.recommendations << ntds << ram;
    QJsonObject terms { { QStringLiteral("total_ram_mb"), ram.value }, { QStringLiteral("os_mb"), in.osMb },
        { QStringLiteral("ntds_mb"), ntds.value }, { QStringLiteral("sysvol_mb"), in.sysvolMb },
        { QStringLiteral("formula"), ram.formula }, { QStringLiteral("computation"), ram.computation } };
    if (in.users) {
        Recommendation cores;
        cores.name = QStringLiteral("CPU cores");
        cores.isSetting = false;
        cores.unit = QStringLiteral("cores");
        cores.value = std::max(1.0, std::ceil(double(*in.users) / kUsersPerCore));
        cores.formula = QStringLiteral("cores ≈ users authenticating at the peak / 1,000 (then check 40 % peak CPU)");
        cores.computation = QStringLiteral("ceil(%1 / 1000) = %2").arg(*in.users).arg(num(cores.value));
        cores.inputs << used("users", double(*in.users), "users", in.originOf(QStringLiteral("users")));
        cores.source = source();
        cores.note = QStringLiteral("assumes every user authenticates in the peak period");
        r.recommendations << cores;
        terms.insert(QStringLiteral("cores"), cores.value);
    }
    r.terms = terms;
    r.apply = QStringLiteral("# Active Directory: nothing to set. Give the domain controller at least %1 MB of RAM; "
                             "ESE grows its cache into it.\n")
                  .arg(num(ram.value, 0));
    r.applyFormat = QStringLiteral("none");
    return r;
}

} // namespace AdSizing
