#pragma once

// A sandbox slapd for the UI tests (the pattern of tests/integration/ldapfixture.h): private, never "current".
#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdsandbox.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"

#include <QFile>

namespace UiSandbox {

inline SandboxGuard start(int entries, QString* why, bool tls = false)
{
    SandboxOptions o;
    o.entries = entries;
    o.tls = tls;
    o.makeCurrent = false;
    ProbeError e;
    auto info = SlapdSandbox::start(o, &e);
    if (!info && why)
        *why = e.message();
    return SandboxGuard(info);
}

inline QByteArray password(const SandboxInfo& s)
{
    QFile f(s.passwordFile);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

inline LdapTarget admin(const SandboxInfo& s)
{
    LdapTarget t;
    t.uri = s.uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = s.bindDn;
    t.password = password(s);
    return t;
}

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
