#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QTextBrowser;
class QUrl;

// Help → User guide (F1): the HTML the build makes from the user docs (README.md, docs/*.md; packaging/guide),
// installed beside them under share/doc/dirbench. It opens in a window of DirBench's own, with Back, Contents and
// "Open in browser" (the desktop's browser, through QDesktopServices). When the guide is not there, or no program
// opens it in a browser, a dialog says so and where the file is (or where it was looked for).
class UserGuide final : public QWidget
{
    Q_OBJECT
public:
    explicit UserGuide(const QString& startPage, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(UserGuide)

    // Where the guide's start page was looked for, in order: this build's install prefix, the Debian package's,
    // this build tree's (a program run from its build directory).
    static QStringList candidates();
    // The first of candidates() that exists; empty when none does.
    static QString startPage();
    // F1: the guide's window (one per `parent`, raised when it is open already), or the dialog naming where the
    // guide was looked for when it is not installed (then null).
    static UserGuide* open(QWidget* parent);

    QTextBrowser* browser() const { return m_browser; }
    QString startFile() const { return m_start; }
    // The page on screen in the desktop's browser; false (and a dialog naming the file) when nothing opened it.
    bool openInBrowser();
    // Hands a URL to the desktop (the default: QDesktopServices::openUrl); a test puts one that refuses.
    void setUrlOpener(std::function<bool(const QUrl&)> opener) { m_opener = std::move(opener); }

private:
    QString m_start;
    QTextBrowser* m_browser = nullptr;
    std::function<bool(const QUrl&)> m_opener;
};
