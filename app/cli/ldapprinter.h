#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <cstdio>

struct LdapLoadSpec;

namespace Cli {

void printProbe(std::FILE* out, const RunRecord& rec);
void printLoadHeader(std::FILE* out, const LdapLoadSpec& spec);
void printLoadInterval(std::FILE* out, const Sample& s);
void printLoadSummary(std::FILE* out, const RunRecord& rec);

} // namespace Cli
