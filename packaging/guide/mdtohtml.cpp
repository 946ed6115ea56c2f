// The user guide's HTML, made at build time from the Markdown user docs (README.md, docs/*.md): Qt's own Markdown
// reader (md4c, GitHub's dialect: tables, fenced code) into a QTextDocument, written out as HTML. A relative link to
// a .md file becomes a link to its .html; every heading gets the anchor GitHub gives it ("#load-from-many-hosts"),
// so the docs' links into a section still land there.
//
// dirbench-guide-html SOURCE_DIR OUT_DIR FILE.md... (FILE relative to SOURCE_DIR; OUT_DIR/FILE.html is written)
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QList>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextStream>

#include <cstdio>

namespace {

// GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens.
QString slug(const QString& heading)
{
    QString out;
    const QString lower = heading.toLower();
    for (const QChar c : lower) {
        if (c.isLetterOrNumber() || c == u'-' || c == u'_')
            out += c;
        else if (c == u' ')
            out += u'-';
    }
    return out;
}

QString htmlHref(const QString& href)
{
    static const QRegularExpression md(QStringLiteral(R"(^(?![a-z]+:)([^#]*)\.md(#.*)?$)"));
    const QRegularExpressionMatch m = md.match(href);
    return m.hasMatch() ? m.captured(1) + QStringLiteral(".html") + m.captured(2) : href;
}

// The links are collected first, then changed: a format change may merge fragments under an iterator.
void rewriteLinks(QTextDocument* doc)
{
    struct Link
    {
        int position;
        int length;
        QString href;
    };
    QList<Link> links;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            const QString href = f.charFormat().anchorHref();
            if (f.charFormat().isAnchor() && htmlHref(href) != href)
                links.append({ f.position(), f.length(), htmlHref(href) });
        }
    }
    for (const Link& link : std::as_const(links)) {
        QTextCursor c(doc);
        c.setPosition(link.position);
        c.setPosition(link.position + link.length, QTextCursor::KeepAnchor);
        QTextCharFormat changed;
        changed.setAnchorHref(link.href);
        c.mergeCharFormat(changed);
    }
}

// Each heading named by its anchor; the first one is the page's title.
QString anchorHeadings(QTextDocument* doc)
{
    QString title;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || block.text().isEmpty())
            continue;
        if (title.isEmpty())
            title = block.text();
        QTextCursor c(block);
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat named;
        named.setAnchor(true);
        named.setAnchorNames({ slug(block.text()) });
        c.mergeCharFormat(named);
    }
    return title;
}

// The body in the reader's own font and size (not the converter's default font), in a column a browser reads well.
QString readable(QString html)
{
    static const QRegularExpression body(QStringLiteral(R"(<body style="[^"]*">)"));
    html.replace(body, QStringLiteral("<body>"));
    html.replace(QStringLiteral("</style>"),
        QStringLiteral("body { font-family: sans-serif; max-width: 60em; margin: 1em auto; padding: 0 1em; "
                       "line-height: 1.4; }\n</style>"));
    return html;
}

bool convert(const QDir& source, const QDir& out, const QString& file)
{
    QFile in(source.filePath(file));
    if (!in.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "dirbench-guide-html: cannot read %s: %s\n", qPrintable(in.fileName()),
            qPrintable(in.errorString()));
        return false;
    }
    QTextDocument doc;
    doc.setMarkdown(QString::fromUtf8(in.readAll()), QTextDocument::MarkdownDialectGitHub);
    rewriteLinks(&doc);
    const QString title = anchorHeadings(&doc);
    doc.setMetaInformation(QTextDocument::DocumentTitle,
        title.isEmpty() || title == u"DirBench" ? QStringLiteral("DirBench user guide")
                                                : QStringLiteral("DirBench: ") + title);
    const QString target = out.filePath(file.chopped(3) + QStringLiteral(".html"));
    QDir().mkpath(QFileInfo(target).absolutePath());
    QFile html(target);
    if (!html.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(
            stderr, "dirbench-guide-html: cannot write %s: %s\n", qPrintable(target), qPrintable(html.errorString()));
        return false;
    }
    html.write(readable(doc.toHtml()).toUtf8());
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const QGuiApplication app(argc, argv); // QTextDocument's fonts need one (run with QT_QPA_PLATFORM=offscreen)
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: dirbench-guide-html SOURCE_DIR OUT_DIR FILE.md...\n");
        return 2;
    }
    const QDir source(args.at(1));
    const QDir out(args.at(2));
    for (const QString& file : args.mid(3))
        if (!file.endsWith(QStringLiteral(".md")) || !convert(source, out, file))
            return 1;
    return 0;
}
