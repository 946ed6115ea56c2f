#include "core/agents/k8smanifest.h"

#include <QJsonArray>

namespace Agents {

namespace {

QJsonObject container(const K8sJobSpec& s)
{
    return QJsonObject { { QStringLiteral("name"), QStringLiteral("agent") }, { QStringLiteral("image"), s.image },
        { QStringLiteral("command"), QJsonArray { QStringLiteral("dirbench-cli"), QStringLiteral("agent") } },
        // stdin empty until the coordinator attaches, closed when it detaches: the agent stops (EOF)
        { QStringLiteral("stdin"), true }, { QStringLiteral("stdinOnce"), true }, { QStringLiteral("tty"), false },
        { QStringLiteral("env"),
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("DIRBENCH_AGENT_INDEX") },
                { QStringLiteral("valueFrom"),
                    QJsonObject { { QStringLiteral("fieldRef"),
                        QJsonObject { { QStringLiteral("fieldPath"),
                            QStringLiteral(
                                "metadata.annotations['batch.kubernetes.io/job-completion-index']") } } } } } } } } };
}

} // namespace

QJsonObject k8sIndexedJob(const K8sJobSpec& s)
{
    QJsonObject meta { { QStringLiteral("name"), s.name },
        { QStringLiteral("labels"),
            QJsonObject { { QStringLiteral("app.kubernetes.io/name"), QStringLiteral("dirbench-agent") } } } };
    if (!s.nameSpace.isEmpty())
        meta.insert(QStringLiteral("namespace"), s.nameSpace);
    const QJsonObject podSpec { { QStringLiteral("restartPolicy"), QStringLiteral("Never") },
        { QStringLiteral("containers"), QJsonArray { container(s) } } };
    const QJsonObject templ { { QStringLiteral("metadata"),
                                  QJsonObject { { QStringLiteral("labels"), meta.value(QStringLiteral("labels")) } } },
        { QStringLiteral("spec"), podSpec } };
    const QJsonObject jobSpec { { QStringLiteral("completionMode"), QStringLiteral("Indexed") },
        { QStringLiteral("completions"), s.agents }, { QStringLiteral("parallelism"), s.agents },
        { QStringLiteral("backoffLimit"), 0 }, { QStringLiteral("activeDeadlineSeconds"), s.deadlineS },
        { QStringLiteral("ttlSecondsAfterFinished"), 600 }, { QStringLiteral("template"), templ } };
    return QJsonObject { { QStringLiteral("apiVersion"), QStringLiteral("batch/v1") },
        { QStringLiteral("kind"), QStringLiteral("Job") }, { QStringLiteral("metadata"), meta },
        { QStringLiteral("spec"), jobSpec } };
}

} // namespace Agents
