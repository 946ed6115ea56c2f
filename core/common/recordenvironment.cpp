#include "core/common/recordenvironment.h"

namespace RecordEnvironment {

QString hostOf(const RunRecord& record)
{
    return record.environment.value(QLatin1String("host")).toString();
}

} // namespace RecordEnvironment
