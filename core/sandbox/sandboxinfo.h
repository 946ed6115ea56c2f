#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// Which servers a sandbox has. Single: one server. Replicas: one provider (supplier) and `replicas` read-only
// consumers that replicate from it (OpenLDAP syncrepl refreshAndPersist; 389-ds an agreement). Mirror: two
// providers that replicate from each other (OpenLDAP multi-provider).
struct SandboxTopology
{
    static constexpr int kMaxReplicas = 8;
    enum class Kind
    {
        Single,
        Replicas,
        Mirror
    };
    Kind kind = Kind::Single;
    int replicas = 0; // Replicas: 1..kMaxReplicas consumers; Mirror: 1 (the second provider)

    static SandboxTopology withReplicas(int n) { return { Kind::Replicas, n }; }
    static SandboxTopology mirror() { return { Kind::Mirror, 1 }; }
    QString name() const; // "single", "replicas", "mirror"
};

// What to start: SlapdSandbox::start() takes this by value.
struct SandboxOptions
{
    static constexpr int kMinEntries = 1;
    static constexpr int kMaxEntries = 10000000;

    int entries = 10000; // uid=user0 .. uid=user{entries-1},ou=people,dc=example,dc=com
    bool tls = false; // also listen on ldaps:// (and offer StartTLS on ldap://) with a self-signed certificate
    // Load the ppolicy overlay with a default policy LdifGenerator::kLockoutPolicyDn that locks an account after
    // 3 failed binds for 300 s (pwdLockout TRUE, pwdMaxFailure 3, pwdLockoutDuration 300).
    bool ppolicyLockout = false;
    int port = 0; // ldap:// port on 127.0.0.1; 0 = a free one (the ldaps:// port is always picked free)
    QString parentDir; // where the sandbox directory is created; empty = QDir::tempPath()
    bool makeCurrent = true; // record the sandbox in the "current" pointer file (see SlapdSandbox::currentFile)
    qint64 ownerPid = 0; // > 0: the sandbox belongs to this process (the GUI's demo) and is an orphan once it is gone
    SandboxTopology topology; // more servers than one (not with tls or ppolicyLockout)
    // Also listen on these ldap:// URLs, e.g. ldap://10.231.7.1:389/ on a bridge a network-namespace test made
    // (the one server of a sandbox without a topology). Tests only: the sandbox is otherwise loopback-only.
    QStringList extraListenUris;
    // slapd in the foreground logging `stats` (-d stats) with its stderr appended to DIR/slapd-stats.log
    // (SlapdSandbox::accessLogPath): the server's own view of each operation, written as it answers (stderr is
    // unbuffered). The one server of a sandbox without a topology.
    bool accessLog = false;
};

// A server of a sandbox beside the first one (SandboxInfo::uri): a consumer, or the second provider of a mirror.
struct SandboxServer
{
    QString role; // "consumer" or "provider"
    QString uri; // ldap://127.0.0.1:PORT/
    QString ldapiUri; // empty for 389-ds
    QString dir; // where its configuration and database are (inside the sandbox directory)
    qint64 pid = 0;
    int serverId = 0; // OpenLDAP serverID / 389-ds replica id; 0 = none
};

// A running sandbox, as written to DIR/sandbox.json (never the password itself: that is in passwordFile, 0600).
struct SandboxInfo
{
    QString uri; // ldap://127.0.0.1:PORT/
    QString ldapsUri; // ldaps://127.0.0.1:PORT/ or empty without TLS
    QString ldapiUri; // ldapi://%2F...%2Fldapi (SASL EXTERNAL maps the current uid/gid to bindDn)
    QString base; // dc=example,dc=com
    QString peopleBase; // ou=people,dc=example,dc=com
    QString bindDn; // cn=admin,dc=example,dc=com (rootdn; also reads cn=monitor)
    QString passwordFile; // DIR/password, 0600: the admin's and every user's password, no newline
    QString caFile; // the self-signed certificate (to verify ldaps/StartTLS) or empty without TLS
    QString policyDn; // the ppolicy overlay's default policy (SandboxOptions::ppolicyLockout), else empty
    QString dir; // the sandbox directory; removed by stop()
    qint64 pid = 0; // slapd's process id
    qint64 ownerPid = 0; // the process it belongs to (SandboxOptions::ownerPid), 0 = nobody (dirbench-cli sandbox)
    QString server; // empty: OpenLDAP's slapd (SlapdSandbox); "389ds": the 389 Directory Server (Ds389Sandbox)
    int entries = 0; // number of uid=userN entries
    double loadSeconds = 0; // LDIF generation + slapadd
    double startSeconds = 0; // the whole start() call until slapd answered
    QString topology = QStringLiteral("single"); // SandboxTopology::name()
    QList<SandboxServer> replicas; // the other servers; the first server is uri/pid
    double initSeconds = 0; // 389-ds: the consumers' total initialisation from the supplier; 0 = none

    bool is389ds() const { return server == u"389ds"; }
    // Every server's ldap:// URI, the first one's first.
    QStringList uris() const;

    // {"schema": "dirbench.sandbox/1", "uri": ..., "ldaps_uri": ..., ...}; empty strings for what is absent
    // ("policy_dn" only when there is one).
    QJsonObject toJson() const;
    // KEY=VALUE lines (URI, LDAPS_URI if TLS, LDAPI_URI, BASE, PEOPLE_BASE, BIND_DN, PASSWORD_FILE, CA_FILE if
    // TLS, POLICY_DN with a lockout policy, PID, DIR, ENTRIES), each ending in '\n'; with replicas also TOPOLOGY,
    // INIT_SECONDS (389-ds) and REPLICAk_URI, REPLICAk_ROLE, REPLICAk_PID, REPLICAk_DIR for k = 1... Values are
    // printed as they are (split at the first '=').
    QString toKeyValue() const;
    // nullopt unless the object has the schema and the fields every sandbox has (uri, ldapi_uri, dir, pid).
    static std::optional<SandboxInfo> fromJson(const QJsonObject& obj);
};
