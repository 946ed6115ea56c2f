#pragma once

#include "core/common/runrecord.h"

#include <QString>

// What a record's environment (Environment::collect) says that its readers show.
namespace RecordEnvironment {

// The host the run measured from; "" when the record does not say.
QString hostOf(const RunRecord& record);

} // namespace RecordEnvironment
