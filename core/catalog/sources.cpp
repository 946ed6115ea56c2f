#include "core/catalog/sources.h"

#include <QRegularExpression>

namespace Sources {

namespace {

// Which document a requirement comes from. The labels are those of resources/profiles/disk-requirements.json
// (unchanged since the first record), so records that predate stored ids are found by their label.
struct RequirementSource
{
    const char16_t* id;
    const char16_t* label;
    const char16_t* source;
};

constexpr RequirementSource kRequirements[] = {
    { u"seed-dd", u"sequential write ≥ 100 MB/s, as the seed measured it (dd: buffered, one fdatasync)",
        u"edirectory-kb-cloud-disks" },
    { u"sustained-seq-write", u"sequential write ≥ 100 MB/s, sustained (direct I/O, at least 30 s)",
        u"edirectory-kb-cloud-disks" },
    { u"commit-p99", u"commit (4 KiB write + fdatasync) p99 ≤ 10 ms", u"dirbench-latency-proposal" },
    { u"rand-read-qd1-p99", u"random 4 KiB read at QD1 p99 ≤ 5 ms", u"dirbench-latency-proposal" },
    { u"cloud-published-max", u"within the published maximum of disk and VM", u"dirbench-cloud-catalog" },
    { u"cloud-near-ceiling", u"reaches 80 % of the reachable ceiling", u"dirbench-cloud-catalog" },
};

// What an old record's source text says when it names a document of the catalog.
struct Recogniser
{
    const char16_t* needle;
    const char16_t* source;
};

constexpr Recogniser kRecognisers[] = {
    { u"seeds/000", u"edirectory-kb-cloud-disks" },
    { u"seed 000", u"edirectory-kb-cloud-disks" },
    { u"eDirectory 9.2", u"edirectory-kb-cloud-disks" },
    { u"seeds/003", u"hpux-ds81-guide" },
    { u"HP-UX Directory Server 8.1", u"hpux-ds81-guide" },
    { u"DirBench proposal", u"dirbench-latency-proposal" },
    { u"cloud catalog", u"dirbench-cloud-catalog" },
};

QString s(const char16_t* text)
{
    return QString::fromUtf16(text);
}

// "page 5", "Table 2", "Equation 1" in the order they appear, once each.
QString locatorsIn(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("\\b(page|pages|Table|Equation|Figure) \\d+"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        if (const QString m = it.next().captured(0); !out.contains(m))
            out << m;
    return out.join(QStringLiteral(", "));
}

// The first quotation of the stored text ("eDirectory requires a minimum of 100 MB/s").
QString quoteIn(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("\"([^\"]{4,})\""));
    const auto m = re.match(text);
    return m.hasMatch() ? m.captured(1) : QString();
}

// A page of a provider's documentation: the copy's address, the page's title, its publisher and its own address.
struct Page
{
    const char16_t* copy;
    const char16_t* title;
    const char16_t* publisher;
    const char16_t* url;
};

constexpr Page kPages[] = {
    { u"awsdocs/amazon-ec2-user-guide/blob/master/doc_source/general-purpose.md", u"General Purpose SSD volumes",
        u"Amazon Web Services", u"https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html" },
    { u"awsdocs/amazon-ec2-user-guide/blob/master/doc_source/provisioned-iops.md", u"Provisioned IOPS SSD volumes",
        u"Amazon Web Services", u"https://docs.aws.amazon.com/ebs/latest/userguide/provisioned-iops.html" },
    { u"awsdocs/amazon-ec2-user-guide/blob/master/doc_source/hdd-vols.md",
        u"Throughput Optimized HDD and Cold HDD volumes", u"Amazon Web Services",
        u"https://docs.aws.amazon.com/ebs/latest/userguide/hdd-vols.html" },
    { u"awsdocs/amazon-ec2-user-guide/blob/master/doc_source/ebs-optimized.md", u"Amazon EBS-optimized instances",
        u"Amazon Web Services", u"https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-optimized.html" },
    { u"MicrosoftDocs/azure-docs/blob/main/includes/disk-storage-premium-ssd-sizes.md",
        u"Azure managed disk types (Premium SSD sizes)", u"Microsoft",
        u"https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types" },
    { u"MicrosoftDocs/azure-docs/blob/main/includes/disk-storage-standard-ssd-sizes.md",
        u"Azure managed disk types (Standard SSD sizes)", u"Microsoft",
        u"https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types" },
    { u"MicrosoftDocs/azure-docs/blob/main/includes/disk-storage-standard-hdd-sizes.md",
        u"Azure managed disk types (Standard HDD sizes)", u"Microsoft",
        u"https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types" },
    { u"MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/disks-types.md", u"Azure managed disk types",
        u"Microsoft", u"https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types" },
    { u"MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/disk-bursting.md", u"Managed disk bursting",
        u"Microsoft", u"https://learn.microsoft.com/en-us/azure/virtual-machines/disk-bursting" },
    { u"MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/dv2-dsv2-series-memory.md",
        u"Memory optimized Dv2 and DSv2-series", u"Microsoft",
        u"https://learn.microsoft.com/en-us/azure/virtual-machines/dv2-dsv2-series-memory" },
    { u"cloud.google.com/compute/docs/disks/performance", u"Persistent Disk performance overview", u"Google Cloud",
        u"https://cloud.google.com/compute/docs/disks/performance" },
    { u"cloud.google.com/compute/docs/disks/optimizing-pd-performance", u"Optimize Persistent Disk performance",
        u"Google Cloud", u"https://cloud.google.com/compute/docs/disks/optimizing-pd-performance" },
    { u"cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced", u"Hyperdisk Balanced", u"Google Cloud",
        u"https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced" },
    { u"docs.aws.amazon.com/AWSEC2/latest/UserGuide/EBSVolumeTypes.html", u"Amazon EBS volume types",
        u"Amazon Web Services", u"https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html" },
};

const QRegularExpression& rawIpUrl()
{
    static const QRegularExpression re(QStringLiteral("\\s*\\(?\\bhttps?://\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d+)?\\S*"));
    return re;
}

QString withoutPaths(QString text)
{
    text.remove(rawIpUrl());
    static const QRegularExpression parenthesised(
        QStringLiteral("\\s*\\((?:[^()]*\\b(?:shared|seeds|resources)/[^()]*|[^()]*reference §[^()]*)\\)"));
    static const QRegularExpression bare(
        QStringLiteral("(?:;\\s*)?(?:\\b(?:shared|seeds|resources)/\\S+|(?:DirBench )?reference §[0-9.]+)"));
    text.remove(parenthesised);
    text.remove(bare);
    return text.simplified();
}

} // namespace

const QList<Source>& all()
{
    static const QList<Source> kAll = {
        { QStringLiteral("edirectory-kb-cloud-disks"),
            QStringLiteral("eDirectory 9.2 on the Amazon AWS or Microsoft Azure cloud platform"),
            QStringLiteral("knowledge-base article"), QStringLiteral("NetIQ / Micro Focus"),
            { QStringLiteral("“Amazon EBS volume types”, Amazon Web Services: "
                             "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-volume-types.html"),
                QStringLiteral("“Amazon EBS-optimized instances”, Amazon Web Services: "
                               "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-optimized.html"),
                QStringLiteral("“Managed Disks pricing”, Microsoft Azure: "
                               "https://azure.microsoft.com/en-au/pricing/details/managed-disks/") } },
        { QStringLiteral("hpux-ds81-guide"),
            QStringLiteral("HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines"),
            QStringLiteral("technical white paper"), QStringLiteral("HP"),
            { QStringLiteral(
                "“HP-UX Directory Server documentation”, HP: https://www.hp.com/go/hpux-security-docs") } },
        { QStringLiteral("dirbench-latency-proposal"), QStringLiteral("Disk latency for a directory server"),
            QStringLiteral("a proposal to be validated, not a vendor figure"), QStringLiteral("DirBench"), {} },
        { QStringLiteral("dirbench-cloud-catalog"), QStringLiteral("Cloud disk catalog"),
            QStringLiteral("the providers' published disk and VM limits, each with its provider page"),
            QStringLiteral("DirBench"), {} },
    };
    return kAll;
}

const Source* byId(const QString& id)
{
    for (const Source& src : all())
        if (src.id == id)
            return &src;
    return nullptr;
}

const Source* forRequirement(const QString& idOrLabel)
{
    if (idOrLabel.isEmpty())
        return nullptr;
    for (const RequirementSource& r : kRequirements)
        if (idOrLabel == QStringView(r.id) || idOrLabel == QStringView(r.label)
            || idOrLabel.endsWith(QStringView(r.label))) // cloud verdicts carry the case as a prefix
            return byId(s(r.source));
    return nullptr;
}

QString requirementIdOf(const Verdict& verdict)
{
    if (!verdict.requirementId.isEmpty())
        return verdict.requirementId;
    for (const RequirementSource& r : kRequirements)
        if (verdict.requirement == QStringView(r.label) || verdict.requirement.endsWith(QStringView(r.label)))
            return s(r.id);
    return {};
}

QString citation(const Source& source, const QString& locator)
{
    QString c = QString(u'“' + source.title + u"”, " + source.kind + u", " + source.publisher);
    if (!locator.isEmpty())
        c += QString(u", " + locator);
    return c;
}

QString fullCitation(const Source& source)
{
    if (source.links.isEmpty())
        return citation(source);
    return QString(citation(source) + u"; it links " + source.links.join(QStringLiteral("; ")));
}

QString ofVerdict(const Verdict& verdict)
{
    const Source* src = forRequirement(verdict.requirementId);
    if (!src)
        src = forRequirement(verdict.requirement);
    if (!src)
        src = namedIn(verdict.source);
    if (!src)
        return withoutPaths(verdict.source);
    const QString quote = quoteIn(verdict.source);
    return quote.isEmpty() ? citation(*src, locatorsIn(verdict.source))
                           : QString(citation(*src) + u", which says “" + quote + u"”");
}

QString readable(const QString& stored)
{
    const Source* src = namedIn(stored);
    if (!src)
        return withoutPaths(stored);
    return citation(*src, locatorsIn(stored));
}

const Source* namedIn(const QString& text)
{
    for (const Recogniser& r : kRecognisers)
        if (text.contains(QStringView(r.needle), Qt::CaseInsensitive))
            return byId(s(r.source));
    return nullptr;
}

QString publishedPage(const QString& url, const QString& asOf)
{
    for (const Page& p : kPages)
        if (url.contains(QStringView(p.copy)))
            return QString(u'“' + s(p.title) + u"”, " + s(p.publisher) + u": " + s(p.url)
                + (url.startsWith(s(p.url)) ? QString()
                                            : QString(u" (figures read from its copy " + url
                                                + (asOf.isEmpty() ? QString() : u", " + asOf) + u')')));
    return asOf.isEmpty() ? url : QString(url + u" (" + asOf + u')');
}

PageLink publishedLink(const QString& url)
{
    for (const Page& p : kPages)
        if (url.contains(QStringView(p.copy)))
            return { QString(u'“' + s(p.title) + u"”, " + s(p.publisher)), s(p.url) };
    return {};
}

bool isCitable(const QString& text)
{
    const QString t = text.trimmed();
    static const QRegularExpression flag(QStringLiteral("(?:^|[\\s(])--[a-z][a-z0-9-]*\\b"));
    return !t.isEmpty() && !flag.match(t).hasMatch() && !t.startsWith(u":/") && !t.startsWith(u"qrc:");
}

bool hasRawIpAddress(const QString& text)
{
    return rawIpUrl().match(text).hasMatch();
}

bool hasRepositoryPath(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("\\b(shared|seeds|resources)/"));
    return re.match(text).hasMatch();
}

} // namespace Sources
