#include "ui/userguide.h"

#include <QApplication>
#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace {

void tell(QWidget* parent, const QString& text)
{
    auto* box = new QMessageBox(
        QMessageBox::Information, QApplication::translate("UserGuide", "User guide"), text, QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("userGuideMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse); // the path, to copy
    box->open();
}

} // namespace

UserGuide::UserGuide(const QString& startPage, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_start(startPage)
    , m_browser(new QTextBrowser(this))
    , m_opener([](const QUrl& url) { return QDesktopServices::openUrl(url); })
{
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("DirBench user guide"));
    m_browser->setObjectName(QStringLiteral("guideBrowser"));
    m_browser->setOpenExternalLinks(true); // https links to the desktop's browser; the guide's own pages stay here
    auto* back = new QPushButton(tr("Back"), this);
    back->setObjectName(QStringLiteral("guideBackButton"));
    back->setEnabled(false);
    auto* home = new QPushButton(tr("Contents"), this);
    home->setObjectName(QStringLiteral("guideHomeButton"));
    auto* external = new QPushButton(tr("Open in browser"), this);
    external->setObjectName(QStringLiteral("guideBrowserButton"));
    external->setToolTip(tr("Show this page in the desktop's web browser"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(back);
    bar->addWidget(home);
    bar->addStretch(1);
    bar->addWidget(external);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_browser, 1);
    connect(back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    connect(home, &QPushButton::clicked, m_browser, &QTextBrowser::home);
    connect(external, &QPushButton::clicked, this, &UserGuide::openInBrowser);
    m_browser->setSource(QUrl::fromLocalFile(startPage));
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 720);
    resize(QSize(900, 760).boundedTo(available.size() - QSize(40, 60)));
}

QStringList UserGuide::candidates()
{
    return { QStringLiteral(DIRBENCH_DOC_DIR "/README.html"), QStringLiteral("/usr/share/doc/dirbench/README.html"),
        QStringLiteral(DIRBENCH_BUILD_GUIDE) };
}

QString UserGuide::startPage()
{
    for (const QString& path : candidates())
        if (QFileInfo(path).isReadable())
            return path;
    return {};
}

UserGuide* UserGuide::open(QWidget* parent)
{
    if (auto* open = parent->findChild<UserGuide*>(QString(), Qt::FindDirectChildrenOnly)) {
        open->show();
        open->raise();
        open->activateWindow();
        return open;
    }
    const QString start = startPage();
    if (start.isEmpty()) {
        tell(parent,
            tr("The user guide is not installed. It was looked for in:\n%1\n\nThe same text is in README.md and "
               "docs/*.md of the source, and in man dirbench.")
                .arg(candidates().join(u'\n')));
        return nullptr;
    }
    auto* guide = new UserGuide(start, parent);
    guide->setAttribute(Qt::WA_DeleteOnClose);
    guide->show();
    return guide;
}

bool UserGuide::openInBrowser()
{
    const QUrl page = m_browser->source().isValid() ? m_browser->source() : QUrl::fromLocalFile(m_start);
    if (m_opener(page))
        return true;
    tell(this,
        tr("No program opened the guide in a web browser. The page is:\n%1\n\nOpen it with any browser, or read it "
           "here.")
            .arg(page.toLocalFile()));
    return false;
}
