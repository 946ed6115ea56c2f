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

QString withoutPaths(QString text)
{
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
            QStringLiteral("technical white paper"), QStringLiteral("HP"), {} },
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

bool hasRepositoryPath(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("\\b(shared|seeds|resources)/"));
    return re.match(text).hasMatch();
}

} // namespace Sources
