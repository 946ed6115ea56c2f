// The catalog loader (a newer cloud-disks.json chosen by the user) on arbitrary bytes: no crash; a refusal names
// the JSON path at fault; every disk type of an accepted catalog evaluates at a few sizes without a crash and with
// finite limits.
#include "core/catalog/catalog.h"
#include "core/catalog/evaluation.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (!doc.isObject())
        return 0;
    QString error;
    const auto catalog = CloudCatalog::Catalog::fromJson(doc.object(), &error);
    if (!catalog) {
        if (error.isEmpty())
            __builtin_trap();
        return 0;
    }
    CloudCatalog::Workload w;
    w.queueDepth = 32;
    w.blockKib = 4;
    for (const auto& d : catalog->disks) {
        for (double gib : { d.minGib, 100.0, d.maxGib }) {
            QString field, why;
            const auto e = CloudCatalog::evaluate(d, gib, catalog->vms.isEmpty() ? nullptr : &catalog->vms.first(),
                CloudCatalog::Provisioning(), w, &field, &why);
            if (!e && field.isEmpty() && why.isEmpty())
                __builtin_trap(); // a refusal says which input
        }
    }
    return 0;
}
