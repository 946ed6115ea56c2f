#include "core/ldap/loadgenerator.h"

namespace Ldap {

RunRecord runLoad(const LdapLoadSpec& spec, RunContext& ctx, LoadRunOptions options)
{
    LoadRun run(spec, ctx, std::move(options));
    return run.run();
}

} // namespace Ldap
