#pragma once

#include "core/workload/logparser.h"

#include <unordered_set>

// slapo-accesslog entries exported as LDIF (ldapsearch -b cn=accesslog, slapcat): one entry per operation with
// its request and result together (slapo-accesslog.5):
//   dn: reqStart=20261201100000.123456Z,cn=accesslog
//   reqStart: 20261201100000.123456Z      reqEnd: 20261201100000.123500Z
//   reqType: search                       reqSession: 1000
//   reqDN: ou=people,dc=x                 reqScope: sub             reqFilter: (uid=u1)
//   reqAttr: cn                           reqEntries: 1             reqResult: 0
//   reqMod: mail:+ u1@x (write values: "attr:op value", op + add, - delete, = replace, # increment)
//   reqNewRDN, reqNewSuperior (modrdn), reqMethod (bind), reqId (abandon)
// reqStart/reqEnd are read to the second: slapd writes the second and then, as the "fraction", its count of
// operations started within that second (slap_op_time's o_tincr), not microseconds; so the log gives no server
// times and ops of one session keep their entry order. Values in base64 ("attr:: ...") are decoded; continuation lines
// (a leading space) are joined. The log has no client addresses and no connection opens: a session's first entry opens
// it, its unbind closes it.
class ParseAccesslogLdif : public LogParser
{
public:
    explicit ParseAccesslogLdif(WorkloadSink* sink)
        : m_join(sink, &m_stats)
    { }
    void line(std::string_view line) override;
    void finish() override;
    std::optional<uint64_t> timeOf(std::string_view line) const override;
    QStringList gaps() const override;

    // "20261201100000.123456Z" as ns since the epoch.
    static std::optional<uint64_t> parseGeneralizedTime(std::string_view s);

private:
    void attribute(std::string_view name, std::string_view value);
    void endEntry();
    void flushPending();

    OpJoiner m_join;
    JoinedOp m_op;
    bool m_inEntry = false;
    bool m_isRequest = false; // the entry has a reqType (not the cn=accesslog container)
    bool m_haveSession = false;
    std::string m_name, m_value; // the attribute being read (continuation lines)
    bool m_base64 = false;
    std::unordered_set<uint64_t> m_sessions;
    std::unordered_map<uint64_t, int64_t> m_nextOp;
    uint64_t m_writes = 0, m_writesWithValues = 0;
};
