#pragma once

#include "core/ldap/serveridentity.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

struct RunRecord;

// A probe record typed (kind "ldap-probe", written by Ldap::probe): the server identity, the five timings, the TLS
// facts and the root DSE. Read here only; the window's probe view and the CLI printer take these fields.

// The record's server identity (RunRecord::server, written by ServerIdentity::toJson). Any record kind may carry it.
struct RecordServer
{
    bool identified = false; // the record names a server at all
    ServerIdentity id; // version empty when the server did not expose it

    static RecordServer of(const RunRecord& record);
    // "OpenLDAP: slapd 2.5.13" (the version without its build date), the kind without a vendor, or "".
    QString shortName() const;
};

// Each step of one request, in ms; empty when the step was not reached (or not done, TLS in clear text).
struct ProbeTimings
{
    std::optional<double> tcpConnect, tlsHandshake, bind, rootDse, search;
};

// The certificate and session facts of a TLS probe (summary.tls).
struct ProbeTls
{
    QString protocol, cipher, subject, issuer, keyType, notAfter;
    int keyBits = 0;
    std::optional<double> daysLeft;
    QStringList sans;
    bool verified = false; // false: --insecure, trusted anyway

    static ProbeTls fromJson(const QJsonObject& tls);
};

struct ProbeSummary
{
    RecordServer server;
    ProbeTimings timings;
    std::optional<ProbeTls> tls; // empty: clear text, or not reached
    QJsonObject rootDse; // the decoded root DSE (rootDseToJson): LDAP attribute names to values
    QString failureDetail; // the failure's detail naming inputs by id (ProbeError::detail); empty without a cause
    bool hasFailureCause = false;

    static ProbeSummary of(const RunRecord& record);

    bool hasRootDse() const { return !rootDse.isEmpty(); }
    // The values of one root DSE attribute ("namingContexts"), as strings; one value for a single-valued one.
    QStringList rootDseValues(const QString& attribute) const;
    // A single-valued root DSE attribute ("vendorName"); empty when absent.
    std::optional<QString> rootDseString(const QString& attribute) const;
};
