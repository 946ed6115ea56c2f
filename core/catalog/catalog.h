#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// The cloud disk catalog (resources/catalog/cloud-disks.json, schema 2): the published limits of AWS, Azure and
// GCP disk types and of a few VMs, each with its sources. Plain data; the formulas live in models.h.
namespace CloudCatalog {

struct Source
{
    QString url;
    QString asOf;
    QString note;
};

// A fixed tier (Azure P/E/S sizes): a provisioned size is rounded up to the next tier.
struct Tier
{
    QString sku;
    double sizeGib = 0;
    double iops = 0;
    double mbps = 0; // in the disk type's throughput unit
    bool upTo = false; // "up to" values (Standard SSD/HDD)
    std::optional<double> burstIops;
    std::optional<double> burstMbps;
    QString burst; // "" none, "credit" (burstMaxMinutes), "on-demand" (only if enabled, extra charge)
    std::optional<double> burstMaxMinutes;
};

struct DiskType
{
    QString id; // "aws-ebs-gp2"
    QString provider; // aws | azure | gcp
    QString name;
    QString apiName; // "gp2", "Premium_LRS"
    QString media; // ssd | hdd
    QString model; // performance_model
    bool mib = false; // throughput unit: MiB/s (true) or MB/s
    double minGib = 1;
    double maxGib = 65536;
    bool sizeRangePublished = true;
    QJsonObject parameters; // the model's numbers (see models.cpp for what each model reads)
    QList<Tier> tiers;
    QJsonArray rows; // the published rows, as in the file (tests check the models against them)
    double latencyMs = 1;
    QString latencyBasis; // published | assumption
    QString latencyNote;
    QString notes;
    bool uncertain = false;
    QString uncertainNotes;
    QList<Source> sources;

    QString label() const; // "AWS gp2", "Azure Premium_LRS"
};

struct VmLimit
{
    double mbps = 0; // MB/s (10^6)
    double iops = 0;
};

struct Vm
{
    QString id; // "t3.medium", "Standard_DS13_v2"
    QString provider;
    std::optional<VmLimit> sustained; // AWS baseline, Azure uncached; nullopt: not published
    std::optional<VmLimit> burst; // AWS maximum (30 min per 24 h)
    std::optional<VmLimit> cached; // Azure cached and temp storage
    double burstMaxMinutes = 0;
    QString burstRule;
    QString notes;
    bool uncertain = false;
    QList<Source> sources;
};

struct Catalog
{
    static constexpr int SchemaVersion = 2;

    int schemaVersion = 0;
    QString compiled;
    QString attribution;
    QString origin; // ":/dirbench/catalog/cloud-disks.json" or the file the user chose
    QList<DiskType> disks;
    QList<Vm> vms;
    QJsonObject seedMeasurements;

    const DiskType* disk(const QString& id) const; // by id or api name ("gp2", "P30" is not a type)
    const Vm* vm(const QString& id) const;
    QStringList providers() const;

    // The built-in catalog (a Qt resource of dirbench_core).
    static Catalog load();
    // A newer file chosen by the user; nullopt with `error` naming the JSON path of the bad field.
    static std::optional<Catalog> loadFile(const QString& path, QString* error);
    static std::optional<Catalog> fromJson(const QJsonObject& root, QString* error);
};

QJsonArray sourcesJson(const QList<Source>& sources);

} // namespace CloudCatalog
