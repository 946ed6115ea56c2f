#pragma once

#include "core/workload/logparser.h"

// OpenLDAP `loglevel stats` lines (servers/slapd: connection.c, bind.c, search.c, modify.c, result.c) of 2.4 to 2.6,
// after any prefix of openldapprefix.h (2.5/2.6 hex with fraction and thread, 2.4 whole hex seconds, syslog RFC 3164
// or RFC 5424, RFC 3339 stamps, or none: then lines have no time):
//   conn=1000 fd=12 ACCEPT from IP=127.0.0.1:40512 (IP=0.0.0.0:389)
//   conn=1000 op=0 BIND dn="uid=u1,dc=x" method=128        (then "BIND dn=... mech=SIMPLE ssf=0": ignored)
//   conn=1000 op=0 RESULT tag=97 err=0 qtime=0.000011 etime=0.000412 text=
//   conn=1000 op=1 SRCH base="dc=x" scope=2 deref=0 filter="(uid=u1)"
//   conn=1000 op=1 SRCH attr=cn mail
//   conn=1000 op=1 SEARCH RESULT tag=101 err=0 qtime=0.000010 etime=0.000200 nentries=1 text=
//   MOD dn= (+ MOD attr=), ADD dn=, DEL dn=, MODRDN dn=, CMP dn= attr=, EXT oid=, ABANDON msg=, UNBIND,
//   conn=1000 fd=12 closed (connection lost)
// A BSD syslog stamp has no year: the current one is taken (the previous one for a date ahead of today).
class ParseOpenLdap : public LogParser
{
public:
    explicit ParseOpenLdap(WorkloadSink* sink);
    void line(std::string_view line) override;
    void finish() override { m_join.finish(); }
    std::optional<uint64_t> timeOf(std::string_view line) const override;
    QStringList gaps() const override;

private:
    void message(uint64_t conn, uint64_t ns, std::string_view rest);
    void request(uint64_t conn, int64_t op, uint64_t ns, std::string_view cmd, std::string_view rest);
    void result(uint64_t conn, int64_t op, uint64_t ns, std::string_view rest);

    OpJoiner m_join;
    JoinedOp m_req;
    std::string_view m_line; // the line being read
    int m_year = 1970;
    uint64_t m_nowS = 0;
    bool m_sawTime = false;
};
