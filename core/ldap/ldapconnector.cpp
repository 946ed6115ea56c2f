#include "core/ldap/ldapconnector.h"

LdapConnector::LdapConnector(const LdapTarget& target, LdapTlsContext* tls)
{
    m_thread = std::thread([this, target, tls] {
        m_error = m_session.open(target, nullptr, tls);
        m_done.store(true, std::memory_order_release);
    });
}

LdapConnector::~LdapConnector()
{
    if (m_thread.joinable())
        m_thread.join();
}

ProbeError LdapConnector::take(LdapSession& session)
{
    if (m_thread.joinable())
        m_thread.join();
    if (!m_error.isError())
        session = std::move(m_session);
    return m_error;
}
