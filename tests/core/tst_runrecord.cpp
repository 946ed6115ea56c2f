#include "core/common/runrecord.h"

#include <QJsonDocument>
#include <QTest>

class TstRunRecord : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void topLevelKeys();
    void refusesWrongSchema();
};

static RunRecord sampleRecord()
{
    RunRecord r;
    r.kind = QStringLiteral("disk");
    r.status = QStringLiteral("failed");
    r.failure
        = QStringLiteral("seq-write: disk full: writing the test file at offset 1048576 (No space left on device)");
    r.started = QDateTime(QDate(2026, 11, 30), QTime(12, 34, 56, 789), Qt::UTC);
    r.spec = QJsonObject { { QStringLiteral("profile"), QStringLiteral("seq-write") },
        { QStringLiteral("size_bytes"), 1048576.0 } };
    r.environment = QJsonObject { { QStringLiteral("host"), QStringLiteral("ldap1") } };
    r.engine = QJsonObject { { QStringLiteral("io"), QStringLiteral("io_uring") }, { QStringLiteral("direct"), true } };
    r.addWarning(QStringLiteral("tmpfs"), QStringLiteral("on tmpfs"));
    r.addWarning(QStringLiteral("tmpfs"), QStringLiteral("again")); // codes are unique
    r.intervals.append(QJsonObject { { QStringLiteral("t"), 0.25 }, { QStringLiteral("mb_per_s"), 123.4 } });
    r.summary = QJsonObject { { QStringLiteral("mb_per_s"), 123.4 } };
    r.verdicts.append({ QStringLiteral("sequential write ≥ 100 MB/s"), QStringLiteral("seed 000"), true, 123.4, 100,
        QStringLiteral("MB/s"), QStringLiteral("note"), QStringLiteral("seed-dd") });
    return r;
}

void TstRunRecord::roundTrip()
{
    const RunRecord r = sampleRecord();
    QCOMPARE(r.warnings.size(), 1);
    QString err;
    const auto back = RunRecord::fromJsonBytes(r.toJsonBytes(), &err);
    QVERIFY2(back.has_value(), qPrintable(err));
    QCOMPARE(back->kind, r.kind);
    QCOMPARE(back->status, r.status);
    QCOMPARE(back->failure, r.failure);
    QCOMPARE(back->started, r.started);
    QCOMPARE(back->spec, r.spec);
    QCOMPARE(back->environment, r.environment);
    QCOMPARE(back->engine, r.engine);
    QCOMPARE(back->warnings, r.warnings);
    QCOMPARE(back->intervals, r.intervals);
    QCOMPARE(back->summary, r.summary);
    QCOMPARE(back->verdicts, r.verdicts);
    QCOMPARE(back->extra, r.extra);
    QCOMPARE(back->toJson(), r.toJson());
}

void TstRunRecord::topLevelKeys()
{
    RunRecord ok;
    ok.kind = QStringLiteral("disk");
    const QJsonObject o = ok.toJson();
    for (const char* k : { "schema", "kind", "status", "failure", "started", "spec", "environment", "server", "engine",
             "warnings", "intervals", "summary", "verdicts" })
        QVERIFY2(o.contains(QLatin1String(k)), k);
    QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("dirbench.run/1"));
    QVERIFY(o.value(QStringLiteral("failure")).isNull()); // null, not ""
    QVERIFY(o.value(QStringLiteral("server")).isNull());
}

void TstRunRecord::refusesWrongSchema()
{
    QJsonObject o = sampleRecord().toJson();
    o.insert(QStringLiteral("schema"), QStringLiteral("dirbench.run/0"));
    QString err;
    QVERIFY(!RunRecord::fromJson(o, &err));
    QVERIFY(err.contains(QStringLiteral("schema")));
    o.insert(QStringLiteral("schema"), QStringLiteral("dirbench.run/1"));
    o.insert(QStringLiteral("status"), QStringLiteral("maybe"));
    QVERIFY(!RunRecord::fromJson(o, &err));
    QVERIFY(err.contains(QStringLiteral("status")));
    QVERIFY(!RunRecord::fromJsonBytes("{not json", &err));
}

QTEST_GUILESS_MAIN(TstRunRecord)
#include "tst_runrecord.moc"
