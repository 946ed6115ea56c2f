#include "core/sandbox/ldifgenerator.h"

#include "core/run/runcontext.h"

#include <QFile>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

const char* const LdifGenerator::kBase = "dc=example,dc=com";
const char* const LdifGenerator::kPeopleBase = "ou=people,dc=example,dc=com";
const char* const LdifGenerator::kLockoutPolicyDn = "cn=default,ou=policies,dc=example,dc=com";

namespace {

constexpr std::array kFirst { "Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Donald", "Edsger", "Frances",
    "Grace", "Hedy", "John", "Ken", "Leslie", "Linus", "Margaret", "Niklaus", "Radia", "Robin", "Tony", "Vint",
    "Whitfield", "Yukihiro", "Zoe" };
constexpr std::array kLast { "Lovelace", "Turing", "Liskov", "Kernighan", "Shannon", "Ritchie", "Knuth", "Dijkstra",
    "Allen", "Hopper", "Lamarr", "McCarthy", "Thompson", "Lamport", "Torvalds", "Hamilton", "Wirth", "Perlman",
    "Milner", "Hoare", "Cerf", "Diffie", "Matsumoto", "Stroustrup", "Backus", "Codd", "Engelbart", "Kay" };
constexpr std::array kDepartments { "Engineering", "Operations", "Finance", "Sales", "Marketing", "Support", "Research",
    "Legal", "Facilities", "Human Resources" };
constexpr std::array kTitles { "Engineer", "Senior Engineer", "Manager", "Director", "Analyst", "Administrator",
    "Consultant", "Architect", "Technician", "Coordinator" };
constexpr std::array kCities { "Amsterdam", "Berlin", "Boston", "Dublin", "Lyon", "Madrid", "Oslo", "Prague", "Seattle",
    "Toronto", "Vienna", "Zurich" };
constexpr std::array kTypes { "Employee", "Contractor", "Intern", "Temporary" };
constexpr std::array kWords { "directory", "service", "replica", "schema", "index", "cache", "entry", "attribute",
    "filter", "search", "bind", "modify", "account", "badge", "project", "budget", "review", "meeting", "office",
    "building", "floor", "printer", "laptop", "network", "access", "policy", "audit", "quarterly", "report", "customer",
    "partner", "training", "on-call", "rotation", "release", "migration", "backup", "restore" };

// SplitMix64: cheap, deterministic per entry.
struct Rng
{
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    template <typename A> const char* pick(const A& a) { return a[next() % a.size()]; }
    unsigned below(unsigned n) { return unsigned(next() % n); }
};

void appendNumber(QByteArray& out, uint64_t v, int width = 0)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    for (int pad = width - int(r.ptr - buf); pad > 0; --pad)
        out.append('0');
    out.append(buf, r.ptr - buf);
}

void attr(QByteArray& out, const char* name, const char* value)
{
    out.append(name).append(": ").append(value).append('\n');
}

bool writeAll(int fd, const QByteArray& data)
{
    const char* p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, size_t(left));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += n;
        left -= n;
    }
    return true;
}

} // namespace

QByteArray LdifGenerator::lockoutPolicy()
{
    QByteArray out;
    out.append("\ndn: ou=policies,").append(kBase).append('\n');
    attr(out, "objectClass", "top");
    attr(out, "objectClass", "organizationalUnit");
    attr(out, "ou", "policies");
    out.append("\ndn: ").append(kLockoutPolicyDn).append('\n');
    attr(out, "objectClass", "top");
    attr(out, "objectClass", "organizationalRole"); // pwdPolicy is auxiliary
    attr(out, "objectClass", "pwdPolicy");
    attr(out, "cn", "default");
    attr(out, "pwdAttribute", "userPassword");
    attr(out, "pwdLockout", "TRUE");
    attr(out, "pwdMaxFailure", "3");
    attr(out, "pwdLockoutDuration", "300");
    attr(out, "pwdFailureCountInterval", "300");
    return out;
}

QByteArray LdifGenerator::header()
{
    QByteArray out;
    out.append("dn: ").append(kBase).append('\n');
    attr(out, "objectClass", "top");
    attr(out, "objectClass", "dcObject");
    attr(out, "objectClass", "organization");
    attr(out, "dc", "example");
    attr(out, "o", "Example Corporation");
    attr(out, "description", "DirBench sandbox directory (generated data)");
    out.append("\ndn: ").append(kPeopleBase).append('\n');
    attr(out, "objectClass", "top");
    attr(out, "objectClass", "organizationalUnit");
    attr(out, "ou", "people");
    out.append('\n');
    return out;
}

void LdifGenerator::appendPerson(QByteArray& out, int index, const QByteArray& passwordHash)
{
    Rng rng { uint64_t(index) * 7919U + 1U };
    const auto i = uint64_t(index);
    const char* first = rng.pick(kFirst);
    const char* last = rng.pick(kLast);
    const char* dept = rng.pick(kDepartments);

    out.append("dn: uid=user");
    appendNumber(out, i);
    out.append(',').append(kPeopleBase).append('\n');
    attr(out, "objectClass", "top");
    attr(out, "objectClass", "person");
    attr(out, "objectClass", "organizationalPerson");
    attr(out, "objectClass", "inetOrgPerson");
    out.append("uid: user");
    appendNumber(out, i);
    out.append("\ncn: ").append(first).append(' ').append(last).append(' ');
    appendNumber(out, i);
    out.append("\nsn: ").append(last);
    out.append("\ngivenName: ").append(first);
    out.append("\ndisplayName: ").append(first).append(' ').append(last);
    out.append("\ninitials: ").append(first[0]).append(". ").append(last[0]).append('.');
    out.append("\nmail: user");
    appendNumber(out, i);
    out.append("@example.com\ntelephoneNumber: +1 555 ");
    appendNumber(out, i / 10000 % 1000, 3);
    out.append(' ');
    appendNumber(out, i % 10000, 4);
    out.append("\nmobile: +1 556 ");
    appendNumber(out, rng.below(1000), 3);
    out.append(' ');
    appendNumber(out, rng.below(10000), 4);
    out.append("\nemployeeNumber: ");
    appendNumber(out, 100000 + i);
    out.append("\nemployeeType: ").append(rng.pick(kTypes));
    out.append("\ndepartmentNumber: D");
    appendNumber(out, rng.below(1000), 3);
    out.append("\nou: ").append(dept);
    out.append("\ntitle: ").append(rng.pick(kTitles));
    out.append("\nl: ").append(rng.pick(kCities));
    out.append("\nstreet: ");
    appendNumber(out, 1 + rng.below(999));
    out.append(" Main Street\npostalCode: ");
    appendNumber(out, rng.below(100000), 5);
    out.append("\nroomNumber: ");
    appendNumber(out, 100 + rng.below(900));
    out.append("\npreferredLanguage: en\ncarLicense: DB-");
    appendNumber(out, rng.below(1000000), 6);
    out.append("\ndescription:");
    for (int len = 0; len < 400;) {
        const char* w = rng.pick(kWords);
        out.append(' ').append(w);
        len += 1 + int(qstrlen(w));
    }
    out.append("\nuserPassword: ").append(passwordHash).append("\n\n");
}

bool LdifGenerator::write(const QString& path, int entries, const QByteArray& passwordHash, ProbeError* error,
    RunContext* ctx, double progressFrom, double progressTo)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (error)
            *error = ProbeError::fromErrno(errno, QStringLiteral("cannot create ") + path);
        return false;
    }
    constexpr qsizetype kChunk = 4 << 20;
    QByteArray buf;
    buf.reserve(kChunk + 4096);
    buf.append(header());
    ProbeError err;
    for (int i = 0; i < entries && !err.isError(); ++i) {
        appendPerson(buf, i, passwordHash);
        if (buf.size() >= kChunk || i + 1 == entries) {
            if (!writeAll(fd, buf))
                err = ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + path);
            buf.resize(0);
        }
        if (ctx && (i % 1000 == 999)) {
            if (ctx->stopRequested())
                err.kind = ProbeError::Kind::Cancelled;
            ctx->setProgress(progressFrom + (progressTo - progressFrom) * double(i + 1) / entries);
        }
    }
    if (!err.isError() && entries <= 0 && !writeAll(fd, buf))
        err = ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + path);
    if (::close(fd) != 0 && !err.isError())
        err = ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + path);
    if (err.isError()) {
        ::unlink(native.constData());
        if (error)
            *error = err;
        return false;
    }
    return true;
}
