#include "ui/widgets/firststarthint.h"

#include "ui/firststart.h"
#include "ui/widgets/notestyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace {
QPushButton* hintButton(const QString& name, const QString& text, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setAutoDefault(false);
    return b;
}
} // namespace

FirstStartHint::FirstStartHint(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("firstStartHint"));
    setFrameShape(QFrame::StyledPanel);
    auto* label = new QLabel(tr("New here? Three things to try:"), this);
    label->setWordWrap(true);
    NoteStyle::apply(label);
    auto* disk = hintButton(QStringLiteral("hintDiskButton"), tr("1. A disk test"), this);
    auto* load = hintButton(QStringLiteral("hintLoadButton"), tr("2. A load against the demo directory"), this);
    auto* report = hintButton(QStringLiteral("hintReportButton"), tr("3. A PDF report of what you ran"), this);
    auto* close = hintButton(QStringLiteral("hintDismissButton"), tr("Dismiss"), this);
    close->setToolTip(tr("Hide this hint; it does not come back."));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(label, 1);
    for (QPushButton* b : { disk, load, report })
        layout->addWidget(b);
    layout->addSpacing(12);
    layout->addWidget(close);
    connect(disk, &QPushButton::clicked, this, &FirstStartHint::diskTestRequested);
    connect(load, &QPushButton::clicked, this, &FirstStartHint::demoLoadRequested);
    connect(report, &QPushButton::clicked, this, &FirstStartHint::reportRequested);
    connect(close, &QPushButton::clicked, this, &FirstStartHint::dismiss);
}

void FirstStartHint::dismiss()
{
    FirstStart::dismissHint();
    hide();
}
