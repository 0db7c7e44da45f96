//===- Timeline.h - draw a pipeline-model schedule -----------------*- C++ -*-===//
//
// Two pictures of a ModelSchedule, one row per engine (loads, tensor core, epilogue) with the
// idle gaps visible: a text timeline for the terminal and the seed's SVG picture.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_ANALYSIS_TIMELINE_H
#define TILEGEN_ANALYSIS_TIMELINE_H

#include "tilegen/Analysis/PipelineModel.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace tilegen {

/// Prints the first `tiles` tiles of `s` (all when `tiles` <= 0 or more than the run has) in at
/// most `width` columns (at least 40). `unit` names the time unit in the scale line ("cycles").
void printTextTimeline(llvm::raw_ostream &os, const ModelSchedule &s, int tiles, int width,
                       llvm::StringRef unit);

/// The most K-slices an SVG timeline may draw: it writes a shape with a tooltip per slice (about
/// 190 bytes each for the load and the MMA), so 20,000 slices make a 7 MB picture a browser
/// still opens. Callers refuse more (the text timeline scales to its width and needs no bound).
constexpr int64_t kMaxDrawnSlices = 20'000;

/// Writes a standalone SVG of the first `tiles` tiles of `s`: one row per engine (the load row
/// has one lane per ring slot), busy spans coloured by tile, idle gaps hatched. `title` is
/// drawn above the rows. It writes two shapes per slice of those tiles: callers bound them by
/// kMaxDrawnSlices.
void writeTimelineSVG(llvm::raw_ostream &os, const ModelSchedule &s, int tiles,
                      llvm::StringRef title, llvm::StringRef unit);

} // namespace tilegen

#endif // TILEGEN_ANALYSIS_TIMELINE_H
