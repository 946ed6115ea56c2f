#pragma once

#include "core/sandbox/sandboxinfo.h"

#include <optional>

// Stops a sandbox when it goes out of scope (tests, experiments): SandboxGuard g(SlapdSandbox::start(...)).
class SandboxGuard
{
public:
    explicit SandboxGuard(std::optional<SandboxInfo> info = std::nullopt);
    ~SandboxGuard();
    SandboxGuard(const SandboxGuard&) = delete;
    SandboxGuard& operator=(const SandboxGuard&) = delete;
    SandboxGuard(SandboxGuard&& other) noexcept;
    SandboxGuard& operator=(SandboxGuard&& other) noexcept;

    bool isValid() const { return m_info.has_value(); }
    explicit operator bool() const { return isValid(); }
    const SandboxInfo& info() const { return *m_info; }
    const SandboxInfo* operator->() const { return &*m_info; }

    // Stops the current sandbox (if any) now and takes `info`; returns false if the stop failed.
    bool reset(std::optional<SandboxInfo> info = std::nullopt);
    // Gives up ownership without stopping.
    std::optional<SandboxInfo> release();

private:
    std::optional<SandboxInfo> m_info;
};
