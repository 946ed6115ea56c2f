// convlog FORMAT < 389-access > log — the same operations as a 389-ds access log (gen389log's), written as
// another format DirBench reads, for bench/log_parse.sh:
//   ol25     OpenLDAP 2.5/2.6 logfile: "%lx.%08x %p " then the stats message (qtime/etime)
//   ol24     OpenLDAP 2.4 `slapd -d`: "%08x " (whole seconds), messages without qtime/etime
//   rfc3164  syslog "Dec  1 10:00:00 host slapd[812]: " then the 2.5 message
//   rfc5424  syslog "<167>1 2026-12-01T10:00:00.000031+00:00 host slapd 812 - - " then the 2.5 message
//   ldif     slapo-accesslog entries (one per operation, written at its result)
// Not a parser of record: it knows exactly the lines gen389log writes.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>
#include <string_view>
#include <unordered_map>

namespace {

using sv = std::string_view;
std::string g_format;
std::string g_out;
std::unordered_map<uint64_t, std::string> g_requests; // (conn << 20 | op) -> the 389 request line's message

sv after(sv s, sv key)
{
    const size_t at = s.find(key);
    if (at == sv::npos)
        return {};
    s.remove_prefix(at + key.size());
    return s.substr(0, s.find_first_of(" \""));
}

sv quoted(sv s, sv key)
{
    const size_t at = s.find(key);
    if (at == sv::npos)
        return {};
    s.remove_prefix(at + key.size());
    return s.substr(0, s.find('"'));
}

// "[01/Dec/2026:10:00:00.000031458 +0000]" -> epoch seconds and nanoseconds (UTC stamps only).
void stampOf(sv line, int64_t* secs, long* ns)
{
    static std::string lastSecond;
    static int64_t lastSecs = 0;
    if (line.substr(1, 20) != lastSecond) {
        struct tm tm = {};
        strptime(std::string(line.substr(1, 20)).c_str(), "%d/%b/%Y:%H:%M:%S", &tm);
        lastSecs = timegm(&tm);
        lastSecond = line.substr(1, 20);
    }
    *secs = lastSecs;
    *ns = std::strtol(std::string(line.substr(22, 9)).c_str(), nullptr, 10);
}

void prefix(int64_t secs, long ns)
{
    char buf[96];
    struct tm tm;
    const time_t t = time_t(secs);
    gmtime_r(&t, &tm);
    if (g_format == "ol25") {
        std::snprintf(buf, sizeof buf, "%lx.%08lx 0x7f0158bfe6c0 ", long(secs), ns);
    } else if (g_format == "ol24") {
        std::snprintf(buf, sizeof buf, "%08lx ", long(secs));
    } else if (g_format == "rfc3164") {
        std::strftime(buf, sizeof buf, "%b %e %H:%M:%S ldap1 slapd[812]: ", &tm);
    } else {
        char day[32];
        std::strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
        std::snprintf(buf, sizeof buf, "<167>1 %s.%06ld+00:00 ldap1 slapd 812 - - ", day, ns / 1000);
    }
    g_out += buf;
}

// One 389 message ("conn=1 op=2 SRCH ...") as OpenLDAP's stats line(s).
void statsLine(int64_t secs, long ns, sv msg)
{
    const bool etimes = g_format != "ol24";
    auto line = [&](const std::string& text) {
        prefix(secs, ns);
        g_out += text;
        g_out += '\n';
    };
    const sv conn = after(msg, "conn="), op = after(msg, " op=");
    const std::string head = "conn=" + std::string(conn) + " op=" + std::string(op) + ' ';
    if (msg.find(" connection from ") != sv::npos) {
        line("conn=" + std::string(conn) + " fd=" + std::string(after(msg, " fd="))
            + " ACCEPT from IP=" + std::string(after(msg, "connection from ")) + ":40512 (IP=0.0.0.0:389)");
    } else if (msg.find(" closed") != sv::npos) {
        line("conn=" + std::string(conn) + " fd=" + std::string(after(msg, " fd=")) + " closed");
    } else if (msg.find(" RESULT ") != sv::npos) {
        const sv tag = after(msg, " tag="), err = after(msg, " err="), etime = after(msg, " etime=");
        const std::string times = etimes ? " qtime=0.000010 etime=" + std::string(etime) : std::string();
        if (tag == "101")
            line(head + "SEARCH RESULT tag=101 err=" + std::string(err) + times
                + " nentries=" + std::string(after(msg, " nentries=")) + " text=");
        else
            line(head + "RESULT tag=" + std::string(tag) + " err=" + std::string(err) + times + " text=");
    } else if (msg.find(" SRCH ") != sv::npos) {
        line(head + "SRCH base=\"" + std::string(quoted(msg, "base=\"")) + "\" scope="
            + std::string(after(msg, "scope=")) + " deref=0 filter=\"" + std::string(quoted(msg, "filter=\"")) + '"');
    } else if (msg.find(" BIND ") != sv::npos) {
        line(head + "BIND dn=\"" + std::string(quoted(msg, "dn=\"")) + "\" method=128");
    } else {
        const size_t at = msg.find(head);
        line(std::string(msg.substr(at == sv::npos ? 0 : at)));
    }
}

const char* ldifType(sv cmd)
{
    return cmd == "SRCH" ? "search"
        : cmd == "BIND"  ? "bind"
        : cmd == "MOD"   ? "modify"
        : cmd == "ADD"   ? "add"
        : cmd == "DEL"   ? "delete"
        : cmd == "CMP"   ? "compare"
                         : "extended";
}

// An accesslog entry per operation, written at its result (unbinds at once).
void ldifEntry(int64_t secs, long ns, sv msg)
{
    const sv conn = after(msg, "conn="), op = after(msg, " op=");
    const uint64_t key = (std::strtoull(std::string(conn).c_str(), nullptr, 10) << 20)
        | (std::strtoull(std::string(op).c_str(), nullptr, 10) & 0xfffff);
    const size_t at = msg.find(" op=");
    const sv rest = at == sv::npos ? sv() : msg.substr(at + 4 + op.size() + 1);
    const sv cmd = rest.substr(0, rest.find(' '));
    if (cmd != "RESULT" && cmd != "UNBIND") {
        if (!cmd.empty() && cmd != "fd=")
            g_requests[key] = std::string(rest);
        return;
    }
    char stamp[64];
    struct tm tm;
    const time_t t = time_t(secs);
    gmtime_r(&t, &tm);
    std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
    const std::string start = std::string(stamp) + '.' + std::to_string(1000000 + ns / 1000).substr(1) + 'Z';
    std::string req = cmd == "UNBIND" ? std::string("UNBIND") : g_requests[key];
    g_requests.erase(key);
    const sv r(req);
    const sv rcmd = r.substr(0, r.find(' '));
    g_out += "dn: reqStart=" + start + ",cn=accesslog\nreqStart: " + start + "\nreqEnd: " + start
        + "\nreqType: " + (cmd == "UNBIND" ? "unbind" : ldifType(rcmd)) + "\nreqSession: " + std::string(conn)
        + "\nreqDN: " + std::string(rcmd == "SRCH" ? quoted(r, "base=\"") : quoted(r, "dn=\""))
        + "\nreqResult: " + std::string(after(msg, " err=")) + '\n';
    if (rcmd == "SRCH")
        g_out += "reqScope: sub\nreqFilter: " + std::string(quoted(r, "filter=\""))
            + "\nreqEntries: " + std::string(after(msg, " nentries=")) + '\n';
    g_out += '\n';
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: convlog ol25|ol24|rfc3164|rfc5424|ldif < 389-access > log\n");
        return 2;
    }
    g_format = argv[1];
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.size() < 45 || line[0] != '[')
            continue;
        int64_t secs = 0;
        long ns = 0;
        stampOf(line, &secs, &ns);
        const sv msg = sv(line).substr(line.find("] ") + 2);
        if (g_format == "ldif")
            ldifEntry(secs, ns, msg);
        else
            statsLine(secs, ns, msg);
        if (g_out.size() > (1u << 20)) {
            std::fwrite(g_out.data(), 1, g_out.size(), stdout);
            g_out.clear();
        }
    }
    std::fwrite(g_out.data(), 1, g_out.size(), stdout);
    return 0;
}
