// dirbench-cli sizing, run as a script would: JSON on stdout, exit codes, messages that name the argument.
#include "tests/common/clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace {

using CliRun::Result;

Result run(QStringList args)
{
    args.prepend(QStringLiteral("sizing"));
    args << QStringLiteral("--no-history");
    return CliRun::run(args, 60000);
}

} // namespace

class TstSizingCli : public QObject
{
    Q_OBJECT
private slots:
    void ds389JsonOnStdout()
    {
        const Result r = run({ "--server", "389ds", "--threads", "8", "--dbcache-mb", "685", "--entries", "250000",
            "--entry-cache-bytes-per-entry", "3000", "--ram-mb", "16000", "--cpus", "8", "--json", "-" });
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &pe).object();
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString())); // nothing else on stdout
        QCOMPARE(o.value("schema").toString(), QStringLiteral("dirbench.run/1"));
        QCOMPARE(o.value("kind").toString(), QStringLiteral("sizing"));
        QCOMPARE(o.value("status").toString(), QStringLiteral("ok"));
        const QJsonObject s = o.value("summary").toObject();
        QVERIFY(std::abs(s.value("total_ram_mb").toDouble() - 2926.8) < 1e-6);
        QVERIFY(std::abs(s.value("base_mb").toDouble() - 29) < 1e-9);
        QVERIFY(std::abs(s.value("dbcache_mb").toDouble() - 685) < 1e-9);
        QVERIFY(std::abs(s.value("entry_caches_mb").toDouble() - 750) < 1e-9);
        QCOMPARE(s.value("import_cache_mb").toDouble(), 0.0);
        const QJsonArray recs = s.value("recommendations").toArray();
        QVERIFY(recs.size() >= 5);
        for (const auto& v : recs) {
            const QJsonObject rec = v.toObject();
            for (const char* k : { "name", "value", "unit", "formula", "inputs", "source", "apply" })
                QVERIFY2(rec.contains(QLatin1String(k)), k);
        }
        QVERIFY(s.value("autotune").toObject().contains("vs_need"));
        QCOMPARE(s.value("apply").toObject().value("applied").toBool(true), false);
        QVERIFY(r.err.contains("NOT applied")); // the human text went to stderr
        QCOMPARE(
            o.value("spec").toObject().value("origin").toObject().value("threads").toString(), QStringLiteral("typed"));
    }

    void ldifInput()
    {
        const Result r = run(
            { "--server", "openldap", "--ldif", DIRBENCH_SOURCE_DIR "/tests/data/sizing/mixed.ldif", "--json", "-" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject s = QJsonDocument::fromJson(r.out).object().value("summary").toObject();
        QCOMPARE(s.value("ldif").toObject().value("entries").toDouble(), 3.0);
        QVERIFY(std::abs(s.value("data_mdb_mb").toDouble() - 434e-6) < 1e-12);
        QVERIFY(s.value("apply").toObject().value("text").toString().contains("olcDbIndex: uid eq"));
        bool estimate = false;
        for (const auto& w : QJsonDocument::fromJson(r.out).object().value("warnings").toArray())
            estimate = estimate || w.toObject().value("code").toString() == u"estimate";
        QVERIFY(estimate);
    }

    void humanOutput()
    {
        const Result r = run({ "--server", "edirectory", "--db-size-mb", "4000" });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("cache = 8000 MB"));
        QVERIFY(r.out.contains("formula:"));
        QVERIFY(r.out.contains("source:"));
        QVERIFY(r.out.contains("cache=8000000000"));
        // A setting whose value now was not read says so, and how to read it.
        QVERIFY2(r.out.contains("cache = 8000 MB\n    now:      not read (--uri reads it)\n"), r.out.constData());
        // The guide and the vendors are cited by title, never by a raw IP address or the notes' section numbers.
        QVERIFY(!r.out.contains("reference §") && !r.out.contains("38.142.81.21"));
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("no server") << QStringList { "--dbcache-mb", "1" } << "--server";
        QTest::newRow("unknown server") << QStringList { "--server", "novell" } << "--server";
        QTest::newRow("uri not ldap") << QStringList { "--server", "389ds", "--uri", "http://localhost" } << "--uri";
        QTest::newRow("base without uri")
            << QStringList { "--server", "389ds", "--base", "dc=example,dc=com" } << "--base";
        QTest::newRow("threads not a number")
            << QStringList { "--server", "389ds", "--threads", "eight" } << "--threads";
        QTest::newRow("threads 2.5") << QStringList { "--server", "389ds", "--threads", "2.5" } << "--threads";
        QTest::newRow("negative dbcache")
            << QStringList { "--server", "389ds", "--dbcache-mb", "-5" } << "--dbcache-mb";
        QTest::newRow("nothing to size the dbcache from")
            << QStringList { "--server", "389ds", "--entry-cache-mb", "100" } << "--dbcache-mb";
        QTest::newRow("missing LDIF file")
            << QStringList { "--server", "389ds", "--ldif", "/nonexistent.ldif" } << "--ldif";
        QTest::newRow("ad without size") << QStringList { "--server", "ad" } << "--db-size-mb";
        QTest::newRow("autosize 0") << QStringList { "--server", "389ds", "--autosize", "0" } << "--autosize";
        QTest::newRow("entry factor 20") << QStringList { "--server", "389ds", "--entry-factor", "20" }
                                         << "--entry-factor";
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const Result r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstSizingCli)
#include "tst_sizing_cli.moc"
