#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/compare.h"
#include "core/catalog/models.h"

#include <QList>
#include <QString>

// The eDirectory article's own table (shared/seeds/000) as data: each case with the catalog entry it names, so the
// measured-vs-listed story can be told without a cloud account. Every figure is the article's (dd, buffered,
// 64 KiB writes, one fdatasync); where the article does not say something (a VM, a size), the case says so.
namespace CloudCatalog::SeedExample {

struct Case
{
    QString id; // stable: "aws-t3.medium", "azure-p30", ...
    QString label; // as the article names the setup
    QString diskType; // catalog id
    double sizeGib = 0;
    QString vm; // "" = the article does not name one
    Provisioning provisioning;
    double measuredMbps = 0;
    bool upperBound = false; // "less than 50MB/s"
    QString quote; // the article's words
    QString note; // what DirBench assumed
};

QString source();
QString command();
QList<Case> cases();
Measured measured(const Case& c);

} // namespace CloudCatalog::SeedExample
