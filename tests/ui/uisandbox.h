#pragma once

// A sandbox slapd for the UI tests (the pattern of tests/integration/ldapfixture.h): private, never "current".
#include "tests/integration/ldapfixture.h"
#include "ui/demodirectory.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/widgets/demodirectorybox.h"

#include <QSignalSpy>

#include <optional>

namespace UiSandbox {

inline SandboxGuard start(int entries, QString* why, bool tls = false)
{
    return LdapFixture::start(entries, tls, why);
}

using LdapFixture::admin;
using LdapFixture::password;

// The page set up for a search load of `seconds` over every entry, as the admin (who can read cn=monitor).
inline void fillSearch(LdapPage* page, const SandboxInfo& s, double seconds)
{
    page->connectionForm()->setTarget(admin(s));
    LdapLoadForm* f = page->loadForm();
    f->setOperation(QStringLiteral("search"));
    f->setText(QStringLiteral("base"), s.peopleBase);
    f->setText(QStringLiteral("filter"), QStringLiteral("(uid=user[0-%1])").arg(s.entries - 1));
    f->setText(QStringLiteral("attrs"), QStringLiteral("cn,mail"));
    f->setNumber(QStringLiteral("duration"), seconds);
    f->setNumber(QStringLiteral("interval"), 0.5);
}

// Starts the demo directory the box is set for and waits until it runs (up to 3 minutes: a 389-ds pair is made and
// initialised): its info, or none with *why (the demo's own error, or the time out).
inline std::optional<SandboxInfo> startDemo(DemoDirectoryBox* box, DemoDirectory* demo, QString* why)
{
    QSignalSpy started(demo, &DemoDirectory::started);
    QSignalSpy failed(demo, &DemoDirectory::failed);
    box->startDemo();
    if (!started.wait(180000) && failed.isEmpty())
        *why = QStringLiteral("the demo directory did not start within 3 minutes");
    else if (!failed.isEmpty())
        *why = demo->lastError();
    return why->isEmpty() ? demo->info() : std::nullopt;
}

} // namespace UiSandbox
