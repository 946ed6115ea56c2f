#pragma once

#include "core/common/runrecord.h"

#include <QList>
#include <QString>
#include <QStringList>

// The published documents DirBench's requirements and rules come from, cited as a reader finds them: the
// document's title, what kind of document it is, its publisher, and the pages it links. New records store such a
// citation in verdicts[].source; reports look the source up by requirement id when printing (then by the
// requirement's label, then by what an old record's text names), so records made before citations print well too.
// A citation never names a path of this repository.
namespace Sources {

struct Source
{
    QString id; // stable: "edirectory-kb-cloud-disks", "hpux-ds81-guide", ...
    QString title;
    QString kind; // "knowledge-base article", "technical white paper", ...
    QString publisher;
    QStringList links; // pages the document links or that hold it, each "title, publisher: URL"
};

const QList<Source>& all();
const Source* byId(const QString& id);
// The document a requirement comes from, by the requirement's id ("seed-dd", "commit-p99", ...) or, for records
// that predate stored ids, by its label ("sequential write ≥ 100 MB/s, sustained (...)").
const Source* forRequirement(const QString& idOrLabel);
// The requirement's id: the verdict's own, else the one its label is known by ("" when unknown).
QString requirementIdOf(const Verdict& verdict);
// "“Title”, technical white paper, HP" and, when given, where in it: "…, HP, page 5".
QString citation(const Source& source, const QString& locator = {});
// The citation with the pages it links: "…; it links “Amazon EBS volume types”, Amazon Web Services: https://…".
QString fullCitation(const Source& source);
// A verdict's source as a reader can find it (see above); the stored text, cleaned of repository paths, when the
// catalog does not know the requirement.
QString ofVerdict(const Verdict& verdict);
// Any stored source text (a sizing rule's, an experiment's reference): the catalog's citation when the text names
// one of its documents, keeping where in it ("page 5", "Table 2", "Equation 1"); else the text without paths of this
// repository ("(shared/seeds/000)", "reference §3.4").
QString readable(const QString& stored);
// The document of the catalog a stored text names ("…(shared/seeds/003), Table 2"), or nullptr.
const Source* namedIn(const QString& text);
// True when `text` holds a path of this repository (shared/, seeds/, resources/...).
bool hasRepositoryPath(const QString& text);
// A page of a provider's documentation as its publisher serves it: a copy's address (the awsdocs or MicrosoftDocs
// GitHub repositories the catalog read its figures from) becomes "“Title”, Publisher: https://host/page", with the
// copy and its date after it; an address the catalog does not know stays as it is.
QString publishedPage(const QString& url, const QString& asOf = {});
// The same page in parts, for a link: "“Title”, Publisher" and its address; both empty for an unknown address.
struct PageLink
{
    QString label;
    QString url;
};
PageLink publishedLink(const QString& url);
// False for what is not a source a reader can look up: a command-line flag ("--max-lag-ms"), a resource path of the
// program (":/dirbench/...", "qrc:/..."), an empty text.
bool isCitable(const QString& text);
// True when the text holds an address whose host is a raw IP ("http://38.142.81.21:8001/...").
bool hasRawIpAddress(const QString& text);

} // namespace Sources
