//===- Child.h - Running one shape in a contained child process -*- C++ -*-===//
//
// The parent process never touches CUDA. For each shape it forks a child that
// does all GPU work and reports back over a pipe: its current phase (so that a
// hang can be attributed), the device facts, and its result row. The parent
// waits with a deadline and kills a child that does not finish.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_CHILD_H
#define TILEGEN_RUN_CHILD_H

#include "Manifest.h"
#include "Options.h"
#include "Report.h"

#include <string>

namespace tilegen {
namespace run {

/// Tells the parent what the child is doing. OnGpu: a kernel may be in
/// flight, so a timeout in this phase is a hang of the GPU work.
void reportPhase(const std::string &Phase, bool OnGpu);
/// Sends the device facts to the parent once they are known.
void reportDevice(const DeviceRow &Dev);

/// The outcome of one shape.
struct ShapeOutcome {
  Row R;
  int ExitCode = 0;
  /// The environment failed (no driver, wrong GPU, unloadable cubin): the
  /// remaining shapes of a sweep would fail the same way.
  bool Fatal = false;
  /// The device facts (in-process runs only; a child sends them instead).
  DeviceRow Dev;
};

/// Runs one shape in this process (what the child does). PrintDevice: print
/// the device header (for the first shape).
ShapeOutcome runShapeInProcess(const Options &Opts, const Manifest &Man,
                               const Problem &P, bool PrintDevice);

/// Runs one shape in a child process, with --timeout. Dev is filled from the
/// child's device record when one arrives; the header is printed if Dev was
/// empty.
ShapeOutcome runShapeContained(const Options &Opts, const Manifest &Man,
                               const Problem &P, DeviceRow &Dev);

/// A row with the columns every shape has (kernel, sizes, types, command).
Row baseRow(const Options &Opts, const Manifest &Man, const Problem &P);

/// Prints the device header lines.
void printDeviceHeader(const DeviceRow &Dev);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_CHILD_H
