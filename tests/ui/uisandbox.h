#pragma once

// A sandbox slapd for the UI tests (the pattern of tests/integration/ldapfixture.h): private, never "current".
#include "tests/integration/ldapfixture.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"

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

} // namespace UiSandbox
