#include <QTest>
class T : public QObject { Q_OBJECT private slots: void placeholder() { QVERIFY(false); } };
QTEST_GUILESS_MAIN(T)
#include "tst_cli_disk.moc"
