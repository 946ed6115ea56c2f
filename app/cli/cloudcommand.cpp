#include "app/cli/cloudcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "core/catalog/cloudverdict.h"
#include "core/catalog/comparerecord.h"
#include "core/catalog/need.h"
#include "core/catalog/seedexample.h"
#include "core/common/environment.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace CloudCatalog;

namespace Cli {

namespace {

const char* const kDescription = R"(The cloud disk catalog: published limits of AWS, Azure and GCP disks and VMs.

  cloud list    [--provider P]
  cloud eval    --disk TYPE --size-gb N [--vm VM] [--queue-depth Q --block-kib B] [--provisioned-iops N]
                [--provisioned-mbps X] [--access read|write] [--latency-ms X]
  cloud need    [--mbps X] [--iops N --block-kib 4] [--commit-p99-ms X] [--provider P] [--access read|write]
  cloud compare (--run RUN.json [--test NAME] --disk TYPE --size-gb N [--vm VM] | --seed-example)
                [--fail-on-verdict]

eval: the disk's IOPS and MB/s at that size, its burst and how long it lasts, the VM's caps, and the effective
limit = min(disk, VM, queue depth × block size / latency), saying which binds. need: the smallest size of each
disk type that meets the requirement sustained, and the VMs that do not cap it. compare: a disk record
(dirbench-cli disk --json) beside a catalog entry, with flags: above-published-max, only-while-bursting,
far-below-listed, queue-depth-low, vm-cap, burst-knee, no-vm-figure (warnings, never verdicts). Its verdict: the
disk delivers at least 80 % of its reachable ceiling; a figure known only as a bound ("< 50") is judged as one.
--seed-example compares the eDirectory article's own table. MB/s = 10^6 bytes/s; AWS and GCP publish MiB/s, converted. TYPE is a catalog id (aws-ebs-gp3)
or an API name (gp3, Premium_LRS). --catalog FILE uses a newer catalog (schema 2) instead of the built-in one.
)";

struct Parsed
{
    QCommandLineParser parser;
    Catalog catalog;
};

std::optional<double> number(const QCommandLineParser& parser, const char* name, double min, double max, int* exit)
{
    const QString n = QLatin1String(name);
    if (!parser.isSet(n))
        return std::nullopt;
    bool ok = false;
    const double v = parser.value(n).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < min || v > max) {
        *exit = badArgument(
            u"--" + n, QStringLiteral("'%1' is not a number between %2 and %3").arg(parser.value(n)).arg(min).arg(max));
        return std::nullopt;
    }
    return v;
}

int finishJson(const RunRecord& rec, const QString& path)
{
    if (!path.isEmpty() && !writeRecord(rec, path))
        return ExitFailed;
    return ExitOk;
}

RunRecord plainRecord(const QString& kind, const QJsonObject& spec, const QJsonObject& summary, const Catalog& c)
{
    RunRecord rec;
    rec.kind = kind;
    rec.started = QDateTime::currentDateTimeUtc();
    rec.spec = spec;
    rec.spec.insert(QStringLiteral("catalog"), c.origin);
    rec.summary = summary;
    rec.environment = Environment::collect();
    return rec;
}

int list(const QCommandLineParser& parser, const Catalog& c, std::FILE* out)
{
    const QString provider = parser.value(QStringLiteral("provider"));
    if (!provider.isEmpty() && !c.providers().contains(provider))
        return badArgument(QStringLiteral("--provider"),
            QStringLiteral("'%1' is not one of %2").arg(provider, c.providers().join(QStringLiteral(", "))));
    QJsonArray disks;
    QJsonArray vms;
    std::fprintf(
        out, "catalog: %s (schema %d, compiled %s)\n", qPrintable(c.origin), c.schemaVersion, qPrintable(c.compiled));
    for (const auto& d : c.disks) {
        if (!provider.isEmpty() && d.provider != provider)
            continue;
        std::fprintf(out, "  %-24s %-22s %-44s %s..%s GiB%s\n", qPrintable(d.id), qPrintable(d.apiName),
            qPrintable(d.model), qPrintable(QString::number(d.minGib)), qPrintable(QString::number(d.maxGib)),
            d.uncertain ? "  (uncertain)" : "");
        disks.append(QJsonObject { { QStringLiteral("id"), d.id }, { QStringLiteral("provider"), d.provider },
            { QStringLiteral("api_name"), d.apiName }, { QStringLiteral("name"), d.name },
            { QStringLiteral("performance_model"), d.model }, { QStringLiteral("min_gib"), d.minGib },
            { QStringLiteral("max_gib"), d.maxGib }, { QStringLiteral("uncertain"), d.uncertain },
            { QStringLiteral("sources"), sourcesJson(d.sources) } });
    }
    std::fprintf(out, "VMs:\n");
    for (const auto& v : c.vms) {
        if (!provider.isEmpty() && v.provider != provider)
            continue;
        std::fprintf(out, "  %-20s %s\n", qPrintable(v.id),
            v.sustained
                ? qPrintable(QStringLiteral("%1 MB/s, %2 IOPS sustained").arg(v.sustained->mbps).arg(v.sustained->iops))
                : "no published disk cap");
        vms.append(QJsonObject { { QStringLiteral("id"), v.id }, { QStringLiteral("provider"), v.provider },
            { QStringLiteral("sources"), sourcesJson(v.sources) } });
    }
    std::fflush(out);
    return finishJson(plainRecord(QStringLiteral("cloud-list"), { { QStringLiteral("provider"), provider } },
                          { { QStringLiteral("disk_types"), disks }, { QStringLiteral("vms"), vms } }, c),
        parser.value(QStringLiteral("json")));
}

// --disk, --size-gb, --vm, --provisioned-*: shared by eval and compare. Returns -1 when all is well.
int target(const QCommandLineParser& parser, const Catalog& c, const DiskType** disk, double* size, const Vm** vm,
    Provisioning* prov)
{
    int exit = -1;
    if (!parser.isSet(QStringLiteral("disk")))
        return badArgument(QStringLiteral("--disk"), QStringLiteral("required: a disk type (dirbench-cli cloud list)"));
    *disk = c.disk(parser.value(QStringLiteral("disk")));
    if (!*disk)
        return badArgument(QStringLiteral("--disk"),
            QStringLiteral("'%1' is not in the catalog (dirbench-cli cloud list)")
                .arg(parser.value(QStringLiteral("disk"))));
    if (!parser.isSet(QStringLiteral("size-gb")))
        return badArgument(QStringLiteral("--size-gb"), QStringLiteral("required: the disk's size in GiB"));
    const auto s = number(parser, "size-gb", (*disk)->minGib, (*disk)->maxGib, &exit);
    if (!s)
        return exit;
    *size = *s;
    *vm = nullptr;
    if (parser.isSet(QStringLiteral("vm"))) {
        *vm = c.vm(parser.value(QStringLiteral("vm")));
        if (!*vm)
            return badArgument(QStringLiteral("--vm"),
                QStringLiteral("'%1' is not in the catalog (dirbench-cli cloud list)")
                    .arg(parser.value(QStringLiteral("vm"))));
    }
    prov->iops = number(parser, "provisioned-iops", 1, 1e7, &exit);
    if (exit >= 0)
        return exit;
    const auto mbps = number(parser, "provisioned-mbps", 1, 1e6, &exit);
    if (exit >= 0)
        return exit;
    if (mbps)
        prov->mbps = fromMBps(**disk, *mbps);
    return -1;
}

std::optional<Access> access(const QCommandLineParser& parser, int* exit)
{
    const QString a = parser.value(QStringLiteral("access"));
    if (a.isEmpty() || a == u"write")
        return Access::Write;
    if (a == u"read")
        return Access::Read;
    *exit = badArgument(QStringLiteral("--access"), QStringLiteral("must be read or write, not '%1'").arg(a));
    return std::nullopt;
}

int eval(const QCommandLineParser& parser, const Catalog& c, std::FILE* out)
{
    const DiskType* disk = nullptr;
    const Vm* vm = nullptr;
    double size = 0;
    Provisioning prov;
    if (const int e = target(parser, c, &disk, &size, &vm, &prov); e >= 0)
        return e;
    int exit = -1;
    Workload w;
    const auto qd = number(parser, "queue-depth", 1, 65536, &exit);
    const auto block = number(parser, "block-kib", 0.5, 65536, &exit);
    const auto lat = number(parser, "latency-ms", 0.001, 60000, &exit);
    const auto a = access(parser, &exit);
    if (exit >= 0)
        return exit;
    if (qd && std::floor(*qd) != *qd)
        return badArgument(QStringLiteral("--queue-depth"), QStringLiteral("must be a whole number"));
    if (qd.has_value() != block.has_value())
        return badArgument(qd ? QStringLiteral("--block-kib") : QStringLiteral("--queue-depth"),
            QStringLiteral("--queue-depth and --block-kib go together"));
    w.queueDepth = qd ? int(*qd) : 0;
    w.blockKib = block.value_or(0);
    w.latencyMs = lat;
    w.access = *a;
    QString field;
    QString error;
    const auto ev = evaluate(*disk, size, vm, prov, w, &field, &error);
    if (!ev)
        return badArgument(u"--" + field, error);
    std::fprintf(out, "%s\n", qPrintable(ev->summaryText()));
    for (const auto& s : disk->sources)
        std::fprintf(out, "  source: %s (%s)\n", qPrintable(s.url), qPrintable(s.asOf));
    std::fflush(out);
    return finishJson(
        plainRecord(QStringLiteral("cloud-eval"), ev->toJson(), ev->toJson(), c), parser.value(QStringLiteral("json")));
}

int needCmd(const QCommandLineParser& parser, const Catalog& c, std::FILE* out)
{
    int exit = -1;
    Requirement r;
    r.mbps = number(parser, "mbps", -1e12, 1e12, &exit);
    r.iops = number(parser, "iops", -1e12, 1e12, &exit);
    r.commitP99Ms = number(parser, "commit-p99-ms", -1e12, 1e12, &exit);
    const auto block = number(parser, "block-kib", -1e12, 1e12, &exit);
    const auto a = access(parser, &exit);
    if (exit >= 0)
        return exit;
    r.blockKib = block.value_or(4);
    r.provider = parser.value(QStringLiteral("provider"));
    r.access = *a;
    QString field;
    if (const QString why = r.validate(c, &field); !why.isEmpty())
        return badArgument(u"--" + field, why);
    const NeedResult n = need(c, r);
    std::fprintf(out, "What you need for %s:\n", qPrintable(r.text()));
    for (const auto& row : n.disks) {
        if (!row.met) {
            std::fprintf(out, "  %-28s -  %s\n", qPrintable(row.disk->label()), qPrintable(row.reason));
            continue;
        }
        QString prov;
        if (row.provisionIops)
            prov = QStringLiteral(", provision %1 IOPS").arg(*row.provisionIops);
        if (row.provisionMbps)
            prov += QStringLiteral(" / %1 MB/s").arg(*row.provisionMbps);
        std::fprintf(out, "  %-28s >= %s GiB%s%s (sustained %.1f MB/s, %.0f IOPS)%s%s\n", qPrintable(row.disk->label()),
            qPrintable(QString::number(row.sizeGib)), row.tier.isEmpty() ? "" : qPrintable(u" (" + row.tier + u')'),
            qPrintable(prov), row.sustainedMbps, row.sustainedIops, row.reason.isEmpty() ? "" : "; ",
            qPrintable(row.reason));
    }
    std::fprintf(out, "VMs:\n");
    for (const auto& v : n.vms)
        std::fprintf(out, "  %-20s %-10s %s\n", qPrintable(v.vm->id), qPrintable(v.verdict), qPrintable(v.text));
    std::fflush(out);
    return finishJson(
        plainRecord(QStringLiteral("cloud-need"), r.toJson(), n.toJson(), c), parser.value(QStringLiteral("json")));
}

// Each case's verdict in words (core/catalog/cloudverdict.h), failures first; the flags are warnings, printed above.
void printVerdicts(std::FILE* out, const RunRecord& rec)
{
    QList<CloudCase> cases = casesOf(rec);
    std::stable_sort(
        cases.begin(), cases.end(), [](const CloudCase& a, const CloudCase& b) { return a.failed() && !b.failed(); });
    std::fprintf(out, "verdicts (%s):\n", qPrintable(headline(rec)));
    for (const CloudCase& c : cases)
        std::fprintf(out, "  %s  %s\n",
            !c.verdict              ? "n/a "
                : c.verdict->passed ? "PASS"
                                    : "FAIL",
            qPrintable(caseSentence(c)));
}

int compareCmd(const QCommandLineParser& parser, const Catalog& c, std::FILE* out)
{
    const bool seed = parser.isSet(QStringLiteral("seed-example"));
    if (seed == parser.isSet(QStringLiteral("run")))
        return badArgument(QStringLiteral("--run"), QStringLiteral("give either --run RUN.json or --seed-example"));
    QList<Comparison> comparisons;
    QJsonObject spec;
    QString source;
    QString field;
    QString error;
    if (seed) {
        for (const auto& sc : SeedExample::cases()) {
            const auto cmp = compare(SeedExample::measured(sc), *c.disk(sc.diskType), sc.sizeGib,
                sc.vm.isEmpty() ? nullptr : c.vm(sc.vm), sc.provisioning, &field, &error);
            if (!cmp) {
                std::fprintf(stderr, "dirbench-cli cloud: seed case %s: %s\n", qPrintable(sc.id), qPrintable(error));
                return ExitFailed;
            }
            comparisons << *cmp;
        }
        spec.insert(QStringLiteral("seed_example"), true);
        spec.insert(QStringLiteral("command"), SeedExample::command());
        source = SeedExample::source();
    } else {
        const QString path = parser.value(QStringLiteral("run"));
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return badArgument(QStringLiteral("--run"), path + QStringLiteral(": ") + f.errorString());
        QString why;
        const auto rec = RunRecord::fromJsonBytes(f.readAll(), &why);
        if (!rec)
            return badArgument(QStringLiteral("--run"), path + QStringLiteral(": ") + why);
        const auto m = measuredFromRecord(*rec, parser.value(QStringLiteral("test")), &why);
        if (!m)
            return badArgument(
                parser.isSet(QStringLiteral("test")) ? QStringLiteral("--test") : QStringLiteral("--run"), why);
        const DiskType* disk = nullptr;
        const Vm* vm = nullptr;
        double size = 0;
        Provisioning prov;
        if (const int e = target(parser, c, &disk, &size, &vm, &prov); e >= 0)
            return e;
        const auto cmp = compare(*m, *disk, size, vm, prov, &field, &error);
        if (!cmp)
            return badArgument(u"--" + field, error);
        comparisons << *cmp;
        spec = { { QStringLiteral("run"), path }, { QStringLiteral("disk_type"), disk->id },
            { QStringLiteral("size_gib"), size }, { QStringLiteral("vm"), vm ? QJsonValue(vm->id) : QJsonValue() } };
        source = QStringLiteral("disk record ") + path;
    }
    RunRecord rec = compareRecord(c, comparisons, spec, source);
    rec.environment = Environment::collect();
    for (const auto& cmp : comparisons)
        std::fprintf(out, "%s\n", qPrintable(cmp.text()));
    printVerdicts(out, rec);
    if (seed)
        std::fprintf(out, "source: %s\n", qPrintable(source));
    HistorySink history;
    history.configureSaveOnly(!parser.isSet(QStringLiteral("no-history")));
    history.begin(rec.kind, rec.spec);
    history.finish(out, rec);
    std::fflush(out);
    const int rc = finishJson(rec, parser.value(QStringLiteral("json")));
    const bool failed
        = std::any_of(rec.verdicts.begin(), rec.verdicts.end(), [](const Verdict& v) { return !v.passed; });
    return rc == ExitOk && failed && parser.isSet(QStringLiteral("fail-on-verdict")) ? ExitVerdict : rc;
}

// The options each action takes; anything else is refused by name.
const QMap<QString, QStringList>& actionOptions()
{
    static const QMap<QString, QStringList> m {
        { QStringLiteral("list"), QStringLiteral("provider catalog json").split(u' ') },
        { QStringLiteral("eval"),
            QStringLiteral("disk size-gb vm provisioned-iops provisioned-mbps queue-depth block-kib latency-ms access "
                           "catalog json")
                .split(u' ') },
        { QStringLiteral("need"),
            QStringLiteral("mbps iops commit-p99-ms block-kib provider access catalog json").split(u' ') },
        { QStringLiteral("compare"),
            QStringLiteral("run test disk size-gb vm provisioned-iops provisioned-mbps seed-example catalog json "
                           "no-history fail-on-verdict")
                .split(u' ') },
    };
    return m;
}

int refuseInapplicable(const QCommandLineParser& parser, const QString& action)
{
    if (int rc = refuseForeign(parser, QStringLiteral("cloud"), action, actionOptions()))
        return rc;
    if (action == u"eval")
        return parser.isSet(QStringLiteral("queue-depth"))
            ? ExitOk
            : refuseOptions(parser, { QStringLiteral("latency-ms") },
                QStringLiteral("sets the queue ceiling (queue depth × block size / latency): only with "
                               "--queue-depth and --block-kib"));
    if (action == u"compare" && parser.isSet(QStringLiteral("seed-example")))
        return refuseOptions(parser,
            { QStringLiteral("test"), QStringLiteral("disk"), QStringLiteral("size-gb"), QStringLiteral("vm"),
                QStringLiteral("provisioned-iops"), QStringLiteral("provisioned-mbps") },
            QStringLiteral("not with --seed-example: the article's table names its own disks, sizes and VMs"));
    return ExitOk;
}

} // namespace

int runCloudCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("list, eval, need or compare"));
    const QList<QCommandLineOption> options {
        { QStringLiteral("provider"), QStringLiteral("aws, azure or gcp."), QStringLiteral("P") },
        { QStringLiteral("disk"), QStringLiteral("Disk type: catalog id or API name."), QStringLiteral("TYPE") },
        { QStringLiteral("size-gb"), QStringLiteral("Disk size in GiB."), QStringLiteral("N") },
        { QStringLiteral("vm"), QStringLiteral("VM type (t3.medium, Standard_DS13_v2, ...)."), QStringLiteral("VM") },
        { QStringLiteral("provisioned-iops"), QStringLiteral("Provisioned IOPS (io1/io2, gp3, v2, Ultra)."),
            QStringLiteral("N") },
        { QStringLiteral("provisioned-mbps"), QStringLiteral("Provisioned MB/s (gp3, Premium SSD v2)."),
            QStringLiteral("X") },
        { QStringLiteral("queue-depth"), QStringLiteral("The test's I/Os in flight."), QStringLiteral("Q") },
        { QStringLiteral("block-kib"), QStringLiteral("The test's I/O size in KiB (need: default 4)."),
            QStringLiteral("B") },
        { QStringLiteral("latency-ms"), QStringLiteral("Latency per I/O (default: the catalog's typical)."),
            QStringLiteral("X") },
        { QStringLiteral("access"), QStringLiteral("read or write (default write)."), QStringLiteral("A") },
        { QStringLiteral("mbps"), QStringLiteral("need: sustained MB/s."), QStringLiteral("X") },
        { QStringLiteral("iops"), QStringLiteral("need: IOPS at --block-kib."), QStringLiteral("N") },
        { QStringLiteral("commit-p99-ms"), QStringLiteral("need: commit p99 in ms."), QStringLiteral("X") },
        { QStringLiteral("run"), QStringLiteral("compare: a disk record (dirbench-cli disk --json)."),
            QStringLiteral("RUN.json") },
        { QStringLiteral("test"), QStringLiteral("compare: the suite's sub-test (default seq-write)."),
            QStringLiteral("NAME") },
        { QStringLiteral("seed-example"), QStringLiteral("compare: the eDirectory article's own table.") },
        { QStringLiteral("catalog"), QStringLiteral("A newer catalog file (schema 2)."), QStringLiteral("FILE") },
        { QStringLiteral("json"),
            QStringLiteral("Write the record to FILE ('-' = stdout, and nothing else goes to stdout)."),
            QStringLiteral("FILE") },
        { QStringLiteral("no-history"), QStringLiteral("compare: do not save the record in the history.") },
        { QStringLiteral("fail-on-verdict"),
            QStringLiteral("compare: exit 3 when a case delivers less than 80 % of its reachable ceiling.") },
    };
    parser.addOptions(options);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli cloud: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    const QStringList pos = parser.positionalArguments();
    const QMap<QString, QStringList>& owners = actionOptions();
    if (helpRequested(parser) && pos.size() == 1 && owners.contains(pos.first()))
        return printUsage(QStringLiteral("cloud ") + pos.first(), QString::fromUtf8(kDescription),
            onlyOptions(options, owners.value(pos.first())));
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("cloud list|eval|need|compare"));
    if (pos.size() != 1 || !owners.contains(pos.first()))
        return badArgument(QStringLiteral("action"),
            pos.isEmpty() ? QStringLiteral("required: list, eval, need or compare")
                          : QStringLiteral("'%1' is not list, eval, need or compare").arg(pos.join(u' ')));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (int rc = refuseInapplicable(parser, pos.first()))
        return rc;
    Catalog c;
    if (parser.isSet(QStringLiteral("catalog"))) {
        QString error;
        const auto loaded = Catalog::loadFile(parser.value(QStringLiteral("catalog")), &error);
        if (!loaded)
            return badArgument(QStringLiteral("--catalog"), error);
        c = *loaded;
    } else {
        c = Catalog::load();
    }
    std::FILE* out = humanStream(parser.value(QStringLiteral("json")) == u"-");
    const QString& action = pos.first();
    if (action == u"list")
        return list(parser, c, out);
    if (action == u"eval")
        return eval(parser, c, out);
    if (action == u"need")
        return needCmd(parser, c, out);
    return compareCmd(parser, c, out);
}

} // namespace Cli
