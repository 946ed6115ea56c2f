#include "app/cli/passwordsource.h"

#include <QFile>

#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace Cli {

bool readPassword(const QString& passwordFile, bool needed, QByteArray* password, QString* error, QString* source)
{
    if (!passwordFile.isEmpty()) {
        QFile f(passwordFile);
        if (!f.open(QIODevice::ReadOnly)) {
            *error = passwordFile + QStringLiteral(" cannot be read: ") + f.errorString();
            *source = QStringLiteral("--password-file");
            return false;
        }
        QByteArray line = f.readLine(4096);
        while (line.endsWith('\n') || line.endsWith('\r'))
            line.chop(1);
        *password = line;
        *source = QStringLiteral("--password-file");
        return true;
    }
    const QByteArray env = qgetenv("DIRBENCH_PASSWORD");
    if (!env.isEmpty()) {
        *password = env;
        *source = QStringLiteral("DIRBENCH_PASSWORD");
        return true;
    }
    if (!needed)
        return true;
    if (!::isatty(STDIN_FILENO)) {
        *error = QStringLiteral("a password is needed: give --password-file FILE or set DIRBENCH_PASSWORD "
                                "(it is never taken on the command line)");
        *source = QStringLiteral("--password-file");
        return false;
    }
    std::fputs("Password: ", stderr);
    std::fflush(stderr);
    termios old {};
    tcgetattr(STDIN_FILENO, &old);
    termios quiet = old;
    quiet.c_lflag &= ~tcflag_t(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    char buf[4096];
    const bool ok = std::fgets(buf, sizeof buf, stdin) != nullptr;
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    std::fputs("\n", stderr);
    if (!ok) {
        *error = QStringLiteral("no password typed");
        *source = QStringLiteral("--password-file");
        return false;
    }
    QByteArray line(buf);
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    *password = line;
    *source = QStringLiteral("prompt");
    return true;
}

} // namespace Cli
