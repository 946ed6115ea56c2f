#pragma once

// What the window does when it starts: the demo directory (a private OpenLDAP server) starts when asked for
// (--demo, which scripts/run.sh passes), on the window's very first start, or when its button is pressed — never
// otherwise, and never with a load. A first-start hint points at three things to try until it is dismissed.
// Both facts are kept in the settings (group "firstStart").
struct StartOptions
{
    bool uri = false; // --uri: the user's own server; no demo directory
    bool demo = false; // --demo
    bool noDemo = false; // --no-demo
};

namespace FirstStart {
// True until markStarted() was called once in this profile.
bool isFirst();
void markStarted();
// Whether the demo directory starts now: --demo, or the first start; never with --uri or --no-demo.
bool demoAtStart(const StartOptions& options, bool firstStart);
bool hintDismissed();
void dismissHint();
} // namespace FirstStart
