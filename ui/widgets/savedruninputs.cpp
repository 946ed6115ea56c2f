#include "ui/widgets/savedruninputs.h"

#include "core/store/comparison.h"
#include "ui/widgets/notestyle.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

SavedRunInputs::SavedRunInputs(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_close(new QPushButton(tr("Close the saved run"), this))
{
    setObjectName(QStringLiteral("savedRunInputs"));
    m_title->setObjectName(QStringLiteral("savedRunInputsTitle"));
    m_title->setWordWrap(true);
    NoteStyle::apply(m_title);
    m_table->setObjectName(QStringLiteral("savedRunInputsTable"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({ tr("Setting"), tr("Value") });
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_close->setObjectName(QStringLiteral("closeSavedRunButton"));
    m_close->setToolTip(tr("Back to this page's own form and results"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_close);
    connect(m_close, &QPushButton::clicked, this, &SavedRunInputs::closeRequested);
}

void SavedRunInputs::showRecord(const RunRecord& record)
{
    const QMap<QString, QString> settings = Comparison::settings(record);
    m_title->setText(tr("The inputs of this saved %1 run (%2), read-only. Close it to edit your own.")
                         .arg(record.kind, QLocale().toString(record.started.toLocalTime(), QLocale::ShortFormat)));
    m_table->setRowCount(int(settings.size()));
    int row = 0;
    for (auto it = settings.begin(); it != settings.end(); ++it, ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(it.key()));
        m_table->setItem(row, 1, new QTableWidgetItem(it.value()));
    }
    m_table->resizeRowsToContents();
}

int SavedRunInputs::rowCount() const
{
    return m_table->rowCount();
}

QString SavedRunInputs::value(const QString& key) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->text() == key)
            return m_table->item(row, 1)->text();
    return {};
}
