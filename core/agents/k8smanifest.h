#pragma once

#include <QJsonObject>
#include <QString>

// `dirbench-cli agents k8s-manifest`: a Kubernetes Indexed Job whose pods each run one DirBench agent with its
// stdin open (stdin + stdinOnce), for a coordinator that reaches them with `kubectl attach -i` — the same NDJSON
// stream and the same rule that a closed stdin means stop. Written as JSON (kubectl apply -f takes it). Untested
// against a cluster (there is none here): the structure is unit-tested only.
namespace Agents {

struct K8sJobSpec
{
    QString name = QStringLiteral("dirbench-agents");
    QString nameSpace; // empty: the context's namespace
    QString image; // required: an image with dirbench-cli in its PATH
    int agents = 1; // completions = parallelism
    int deadlineS = 3600; // activeDeadlineSeconds: pods never outlive a forgotten run
};

QJsonObject k8sIndexedJob(const K8sJobSpec& spec);

} // namespace Agents
