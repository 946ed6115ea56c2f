#include "ui/firststart.h"

#include <QSettings>

namespace {
const QString kStarted = QStringLiteral("firstStart/started");
const QString kHintDismissed = QStringLiteral("firstStart/hintDismissed");
} // namespace

bool FirstStart::isFirst()
{
    return !QSettings().value(kStarted, false).toBool();
}

void FirstStart::markStarted()
{
    QSettings().setValue(kStarted, true);
}

bool FirstStart::demoAtStart(const StartOptions& options, bool firstStart)
{
    if (options.uri || options.noDemo)
        return false;
    return options.demo || firstStart;
}

bool FirstStart::hintDismissed()
{
    return QSettings().value(kHintDismissed, false).toBool();
}

void FirstStart::dismissHint()
{
    QSettings().setValue(kHintDismissed, true);
}
