#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

// The prefixes written before OpenLDAP's `stats` messages, each as its release or logger prints it:
//   2.5/2.6 logfile and `slapd -d`  "6749a1b2.1f2e3d4c 0x7f0123456789 " (servers/slapd/main.c 2.5, logging.c 2.6:
//                                    "%lx.%08x %p ", or "%lx.%05x %p " where there is no clock_gettime)
//   2.4 `slapd -d`                   "5eba2c0d " (libraries/liblber/debug.c lutil_debug: "%08x ", whole seconds)
//   syslog RFC 3164                  "Dec  6 07:31:02 host slapd[123]: " (optionally "<167>" first: no year)
//   syslog RFC 5424                  "<167>1 2026-12-06T07:31:02.123456+00:00 host slapd 123 - - "
//   RFC 3339 stamps (rsyslog, 2.6 logfile-format rfc3339-utc) "2026-12-06T07:31:02.123456+00:00 host slapd[123]: "
//   none (journalctl -o cat)         "conn=..."
namespace OpenLdapPrefix {

struct Stamp
{
    std::optional<uint64_t> ns; // the time, ns since the epoch
    size_t messageAt = 0; // where the message starts
    bool subSecond = false;
    bool known = false; // one of the prefixes above (or none at all) was recognised
};

// `year` and `nowS` (seconds since the epoch) date an RFC 3164 stamp: this year, or the last for a day ahead.
Stamp parse(std::string_view line, int year, uint64_t nowS);

} // namespace OpenLdapPrefix
