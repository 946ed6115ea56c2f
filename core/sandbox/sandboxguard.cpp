#include "core/sandbox/sandboxguard.h"

#include "core/sandbox/slapdsandbox.h"

#include <utility>

SandboxGuard::SandboxGuard(std::optional<SandboxInfo> info)
    : m_info(std::move(info))
{ }

SandboxGuard::~SandboxGuard()
{
    reset();
}

SandboxGuard::SandboxGuard(SandboxGuard&& other) noexcept
    : m_info(std::exchange(other.m_info, std::nullopt))
{ }

SandboxGuard& SandboxGuard::operator=(SandboxGuard&& other) noexcept
{
    if (this != &other)
        reset(std::exchange(other.m_info, std::nullopt));
    return *this;
}

bool SandboxGuard::reset(std::optional<SandboxInfo> info)
{
    bool ok = true;
    if (m_info) {
        ProbeError err;
        ok = SlapdSandbox::stop(*m_info, &err);
    }
    m_info = std::move(info);
    return ok;
}

std::optional<SandboxInfo> SandboxGuard::release()
{
    return std::exchange(m_info, std::nullopt);
}
