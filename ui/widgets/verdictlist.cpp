#include "ui/widgets/verdictlist.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace {

QLabel* makeBadge(bool passed, QWidget* parent)
{
    auto* badge = new QLabel(passed ? VerdictList::tr("PASS") : VerdictList::tr("FAIL"), parent);
    badge->setObjectName(passed ? QStringLiteral("passBadge") : QStringLiteral("failBadge"));
    badge->setAlignment(Qt::AlignCenter);
    badge->setFixedWidth(46);
    badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; border-radius: 3px;"
                                        " padding: 2px 0px; }")
                             .arg(passed ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828")));
    return badge;
}

QString describe(const Verdict& v)
{
    const QString unit = v.unit.isEmpty() ? QString() : u' ' + v.unit.toHtmlEscaped();
    QString html = QStringLiteral("<b>%1</b><br>").arg(v.requirement.toHtmlEscaped());
    html += VerdictList::tr("measured %1%2, threshold %3%2")
                .arg((v.measuredIsUpperBound ? QStringLiteral("&lt; ") : QString()) + Units::formatNumber(v.measured),
                    unit, Units::formatNumber(v.threshold));
    QStringList small;
    if (!v.source.isEmpty())
        small << VerdictList::tr("source: %1").arg(v.source.toHtmlEscaped());
    if (!v.note.isEmpty())
        small << QStringLiteral("<i>%1</i>").arg(v.note.toHtmlEscaped());
    if (!small.isEmpty())
        html += QStringLiteral("<br><span style=\"color:%2\">%1</span>")
                    .arg(small.join(QStringLiteral(" · ")), NoteStyle::colour(QApplication::palette()).name());
    return html;
}

} // namespace

VerdictList::VerdictList(QWidget* parent)
    : QWidget(parent)
    , m_rows(new QVBoxLayout)
    , m_placeholder(new QLabel(this))
{
    m_placeholder->setObjectName(QStringLiteral("verdictPlaceholder"));
    m_placeholder->setWordWrap(true);
    NoteStyle::apply(m_placeholder);
    m_placeholder->setText(tr("Verdicts appear after a run."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_placeholder);
    m_rows->setSpacing(6);
    layout->addLayout(m_rows);
    layout->addStretch(1);
}

void VerdictList::removeRows()
{
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        if (QWidget* w = item->widget())
            delete w;
        delete item;
    }
    m_count = 0;
}

void VerdictList::setVerdicts(const QList<Verdict>& verdicts)
{
    removeRows();
    for (const Verdict& v : verdicts) {
        auto* row = new QWidget(this);
        row->setObjectName(QStringLiteral("verdictRow"));
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(makeBadge(v.passed, row), 0, Qt::AlignTop);
        auto* text = new QLabel(describe(v), row);
        text->setObjectName(QStringLiteral("verdictText"));
        text->setTextFormat(Qt::RichText);
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        h->addWidget(text, 1);
        m_rows->addWidget(row);
        ++m_count;
    }
    m_placeholder->setVisible(verdicts.isEmpty());
    if (verdicts.isEmpty())
        m_placeholder->setText(tr("No requirement applies to this test."));
}

void VerdictList::setPlaceholder(const QString& text)
{
    removeRows();
    m_placeholder->setText(text);
    m_placeholder->setVisible(true);
}

void VerdictList::clear()
{
    setPlaceholder(tr("Verdicts appear after a run."));
}
