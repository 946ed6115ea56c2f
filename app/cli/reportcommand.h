#pragma once

namespace Cli {

// `dirbench-cli report`: a PDF/HTML/CSV report of run records. It makes its own QGuiApplication on the offscreen
// platform (no display needed), so main() calls it before any application object exists.
int runReportCommand(int argc, char** argv);

} // namespace Cli
