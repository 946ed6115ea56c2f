#pragma once

#include "core/workload/logparser.h"

// 389-ds (and RHDS) access logs, the default text format (ldap/servers/slapd: connection.c, opshared.c, bind.c,
// result.c log_result):
//   [01/Dec/2026:10:00:00.123456789 +0000] conn=1 fd=64 slot=64 connection from 10.0.0.5 to 10.0.0.1
//   [...] conn=1 op=0 BIND dn="uid=u1,dc=x" method=128 version=3
//   [...] conn=1 op=1 SRCH base="dc=x" scope=2 filter="(uid=u1)" attrs="cn mail"   (attrs=ALL)
//   [...] conn=1 op=1 RESULT err=0 tag=101 nentries=1 wtime=0.000123 optime=0.000456 etime=0.000579 notes=U
//   MOD/ADD/DEL dn=, CMP dn= attr=, MODRDN dn= newrdn= newsuperior=, EXT oid=, ABANDON targetop=, UNBIND,
//   [...] conn=1 op=2 fd=64 closed - U1  (1.3 to 2.0; "closed error 32 (...) - B1"), 2.1 on: "fd=64 Disconnect - U1"
// 1.3 logs second-precision stamps and only etime (in whole seconds to 1.3.6). Internal operations
// ("conn=Internal op=-1", "conn=Internal(0) op=0(0)(0)", "conn=5 (Internal) op=..") are skipped.
class Parse389 : public LogParser
{
public:
    explicit Parse389(WorkloadSink* sink)
        : m_join(sink, &m_stats)
    { }
    void line(std::string_view line) override;
    void finish() override { m_join.finish(); }
    std::optional<uint64_t> timeOf(std::string_view line) const override;
    QStringList gaps() const override;

    // "[01/Dec/2026:10:00:00.123456789 +0000]" (the brackets included) as ns since the epoch.
    static std::optional<uint64_t> parseStamp(std::string_view s, bool* subSecond = nullptr);

private:
    void operationLine(uint64_t conn, uint64_t ns, std::string_view rest);
    void request(uint64_t conn, int64_t op, uint64_t ns, std::string_view cmd, std::string_view rest);
    void result(uint64_t conn, int64_t op, uint64_t ns, std::string_view rest);

    std::optional<uint64_t> stamp(std::string_view s);

    OpJoiner m_join;
    JoinedOp m_req;
    std::string_view m_line; // the line being read
    // The last stamp's "[DD/Mon/YYYY:HH:MM:SS" and zone, and its seconds: most lines share them.
    std::string m_stampSecond, m_stampZone;
    uint64_t m_stampSecs = 0;
};
