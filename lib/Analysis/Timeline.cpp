//===- Timeline.cpp - draw a pipeline-model schedule ----------------------===//

#include "tilegen/Analysis/Timeline.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace tilegen;

namespace {
/// What the pictures draw: every busy span that starts inside [0, end), where end is the last
/// shown tile's epilogue.
struct Window {
  int tiles = 0;
  double end = 0;
};
} // namespace

static Window windowOf(const ModelSchedule &s, int tiles) {
  Window w;
  int total = static_cast<int>(s.epilogueDone.size());
  w.tiles = tiles <= 0 || tiles > total ? total : tiles;
  w.end = w.tiles > 0 ? s.epilogueDone[w.tiles - 1] : 0;
  return w;
}

static char tileChar(int t) { return static_cast<char>('A' + t % 26); }

/// A compact time label: 92, 1024, 12.5k.
static std::string timeLabel(double t) {
  if (t >= 10000) {
    double k = t / 1000;
    if (k >= 100 || k == std::floor(k))
      return llvm::formatv("{0:F0}k", k).str();
    return llvm::formatv("{0:F1}k", k).str();
  }
  if (t == std::floor(t))
    return llvm::formatv("{0:F0}", t).str();
  return llvm::formatv("{0:F1}", t).str();
}

/// A tick step of 1, 2 or 5 times a power of ten giving about `n` ticks over `span`.
static double tickStep(double span, int n) {
  double raw = span / n;
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw)
      return m * p;
  return 10 * p;
}

namespace {
/// One text row sampled `kSub` times per column: each sample holds how many spans cover it and
/// the tile of the last one.
struct SampledRow {
  static constexpr int kSub = 8;
  int cols;
  double unit;
  std::vector<int> count, tile;
  SampledRow(int cols, double unit)
      : cols(cols), unit(unit), count(cols * kSub, 0), tile(cols * kSub, -1) {}
  void add(double a, double b, int t) {
    const double step = unit / kSub;
    int i0 = std::max(0, static_cast<int>(std::ceil(a / step - 0.5)));
    for (int i = i0; i < cols * kSub && (i + 0.5) * step < b; ++i)
      ++count[i], tile[i] = t;
  }
  /// The most spans in flight at once within the column, as a digit.
  char concurrency(int c) const {
    int most = 0;
    for (int i = c * kSub; i < (c + 1) * kSub; ++i)
      most = std::max(most, count[i]);
    return most == 0 ? '.' : most > 9 ? '+' : static_cast<char>('0' + most);
  }
  /// The tile busy for most of the column, or '.' when the engine idles half of it or more.
  char majority(int c) const {
    int busy = 0, last = -1;
    for (int i = c * kSub; i < (c + 1) * kSub; ++i)
      if (count[i] > 0)
        ++busy, last = tile[i];
    return 2 * busy > kSub ? tileChar(last) : '.';
  }
};
} // namespace

void tilegen::printTextTimeline(llvm::raw_ostream &os, const ModelSchedule &s, int tiles,
                                int width, llvm::StringRef unit) {
  Window w = windowOf(s, tiles);
  if (w.tiles == 0 || w.end <= 0) {
    os << "timeline: empty run\n";
    return;
  }
  const int labelWidth = 10;
  // Rows are width - 1 characters, so that a terminal of `width` columns never wraps them.
  const int cols = std::max(28, width - labelWidth - 3);
  const double u = w.end / cols;
  const int slices = static_cast<int>(s.loadStart.size());
  const int K = s.shape.kSlices;

  SampledRow load(cols, u), mma(cols, u), epi(cols, u);
  for (int g = 0; g < slices && s.loadStart[g] < w.end; ++g)
    load.add(s.loadStart[g], s.loadStart[g] + s.costs.load, g / K);
  for (int g = 0; g < slices && s.mmaStart[g] < w.end; ++g)
    mma.add(s.mmaStart[g], s.mmaDone[g], g / K);
  for (int t = 0; t < static_cast<int>(s.epilogueDone.size()); ++t) {
    double start = s.epilogueDone[t] - s.costs.epilogue;
    if (start >= w.end)
      break;
    epi.add(start, s.epilogueDone[t], t);
  }
  std::string loadCells, mmaCells, epiCells;
  for (int c = 0; c < cols; ++c) {
    loadCells += load.concurrency(c);
    mmaCells += mma.majority(c);
    epiCells += epi.majority(c);
  }

  // The time axis: round numbers where they fit, each at its nearest column.
  std::string axis(cols + 1, ' ');
  double step = tickStep(w.end, std::max(2, cols / 12));
  int free = 0;
  for (double t = 0; t <= w.end + 1e-9; t += step) {
    int c = static_cast<int>(std::floor(t / u + 0.5));
    std::string l = timeLabel(t);
    if (c < free || c + l.size() > axis.size())
      continue;
    axis.replace(c, l.size(), l);
    free = c + static_cast<int>(l.size()) + 1;
  }
  while (!axis.empty() && axis.back() == ' ')
    axis.pop_back();

  os << llvm::formatv("timeline: tiles A..{0} of {1}, 0 to {2} {3} (1 column = {4} {3})\n",
                      tileChar(w.tiles - 1), s.shape.tiles, timeLabel(w.end), unit,
                      timeLabel(u));
  os << std::string(labelWidth + 1, ' ') << axis << "\n";
  auto row = [&](llvm::StringRef name, const std::string &cells) {
    os << llvm::left_justify(name, labelWidth) << "|" << cells << "|\n";
  };
  row("load", loadCells);
  row("mma", mmaCells);
  row("epilogue", epiCells);
  os << "  load: most loads in flight (+: over 9); mma, epilogue: the tile (A, B, ...) busy\n"
        "  for most of the column; '.': idle for half of it or more\n";
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

static std::string xmlEscape(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

static const char *tileColour(int t) {
  static const char *palette[] = {"#4e79a7", "#f28e2b", "#59a14f",
                                  "#e15759", "#b07aa1", "#76b7b2"};
  return palette[t % 6];
}

void tilegen::writeTimelineSVG(llvm::raw_ostream &os, const ModelSchedule &s, int tiles,
                               llvm::StringRef title, llvm::StringRef unit) {
  Window w = windowOf(s, tiles);
  const double end = w.end > 0 ? w.end : 1;
  const int K = s.shape.kSlices, S = s.shape.stages;
  const int slices = static_cast<int>(s.loadStart.size());
  const double left = 110, right = 20, plotW = 900, top = 48;
  const double width = left + plotW + right;
  const double laneH = std::max(4.0, std::min(14.0, 112.0 / S));
  const double loadH = laneH * S, rowH = 28, gap = 14;
  const double yLoad = top, yMma = yLoad + loadH + gap, yEpi = yMma + rowH + gap;
  const double yAxis = yEpi + rowH + 6;
  const double height = yAxis + 52;
  auto x = [&](double t) { return left + plotW * std::min(t, end) / end; };
  auto num = [](double v) { return llvm::formatv("{0:F1}", v).str(); };

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
     << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "  <defs>\n"
        "    <pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
        "patternTransform=\"rotate(45)\">\n"
        "      <rect width=\"6\" height=\"6\" fill=\"#f4f4f4\"/>\n"
        "      <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#b0b0b0\" "
        "stroke-width=\"2\"/>\n"
        "    </pattern>\n"
        "  </defs>\n";
  os << "  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << "  <text x=\"" << num(left) << "\" y=\"22\" font-size=\"14\">" << xmlEscape(title)
     << "</text>\n";

  auto rect = [&](double t0, double t1, double y, double h, const char *fill,
                  const std::string &tip) {
    if (t0 >= end || t1 <= t0)
      return;
    os << "    <rect x=\"" << num(x(t0)) << "\" y=\"" << num(y) << "\" width=\""
       << num(std::max(0.5, x(t1) - x(t0))) << "\" height=\"" << num(h) << "\" fill=\"" << fill
       << "\" stroke=\"white\" stroke-width=\"0.5\"><title>" << xmlEscape(tip)
       << "</title></rect>\n";
  };
  auto rowStart = [&](const char *id, const char *label, double y, double h) {
    os << "  <g id=\"" << id << "\">\n";
    os << "    <text x=\"" << num(left - 8) << "\" y=\"" << num(y + h / 2 + 4)
       << "\" text-anchor=\"end\">" << label << "</text>\n";
    os << "    <rect class=\"idle\" x=\"" << num(left) << "\" y=\"" << num(y) << "\" width=\""
       << num(plotW) << "\" height=\"" << num(h) << "\" fill=\"url(#hatch)\"/>\n";
  };

  // Loads: one lane per ring slot, g mod S.
  rowStart("row-load", "load (TMA)", yLoad, loadH);
  for (int g = 0; g < slices && s.loadStart[g] < end; ++g)
    rect(s.loadStart[g], s.loadStart[g] + s.costs.load, yLoad + (g % S) * laneH, laneH,
         tileColour(g / K),
         llvm::formatv("load of slice {0} (tile {1}, k {2}), slot {3}: {4} to {5}", g,
                       tileChar(g / K), g % K, g % S, timeLabel(s.loadStart[g]),
                       timeLabel(s.loadStart[g] + s.costs.load)));
  os << "  </g>\n";
  rowStart("row-mma", "MMA", yMma, rowH);
  for (int g = 0; g < slices && s.mmaStart[g] < end; ++g)
    rect(s.mmaStart[g], s.mmaDone[g], yMma, rowH, tileColour(g / K),
         llvm::formatv("MMA of slice {0} (tile {1}, k {2}): {3} to {4}", g, tileChar(g / K),
                       g % K, timeLabel(s.mmaStart[g]), timeLabel(s.mmaDone[g])));
  os << "  </g>\n";
  rowStart("row-epilogue", "epilogue", yEpi, rowH);
  for (int t = 0; t < static_cast<int>(s.epilogueDone.size()); ++t) {
    double e0 = s.epilogueDone[t] - s.costs.epilogue;
    if (e0 >= end)
      break; // epilogues end in tile order: none after this one is drawn
    rect(e0, s.epilogueDone[t], yEpi, rowH, tileColour(t),
         llvm::formatv("epilogue of tile {0}: {1} to {2}", tileChar(t), timeLabel(e0),
                       timeLabel(s.epilogueDone[t])));
  }
  os << "  </g>\n";

  // Time axis and legend.
  os << "  <g id=\"axis\" stroke=\"#444\">\n";
  os << "    <line x1=\"" << num(left) << "\" y1=\"" << num(yAxis) << "\" x2=\""
     << num(left + plotW) << "\" y2=\"" << num(yAxis) << "\"/>\n";
  double step = tickStep(end, 10);
  for (double t = 0; t <= end + 1e-9; t += step) {
    os << "    <line x1=\"" << num(x(t)) << "\" y1=\"" << num(yAxis) << "\" x2=\"" << num(x(t))
       << "\" y2=\"" << num(yAxis + 4) << "\"/>\n";
    os << "    <text x=\"" << num(x(t)) << "\" y=\"" << num(yAxis + 16)
       << "\" text-anchor=\"middle\" stroke=\"none\" fill=\"#444\">" << timeLabel(t)
       << "</text>\n";
  }
  os << "    <text x=\"" << num(left + plotW) << "\" y=\"" << num(yAxis + 32)
     << "\" text-anchor=\"end\" stroke=\"none\" fill=\"#444\">" << xmlEscape(unit)
     << "</text>\n";
  os << "  </g>\n";
  os << "  <g id=\"legend\">\n";
  double lx = left;
  for (int t = 0; t < std::min(w.tiles, 6); ++t) {
    os << "    <rect x=\"" << num(lx) << "\" y=\"" << num(yAxis + 24) << "\" width=\"12\" "
       << "height=\"12\" fill=\"" << tileColour(t) << "\"/><text x=\"" << num(lx + 16)
       << "\" y=\"" << num(yAxis + 34) << "\">tile " << tileChar(t) << "</text>\n";
    lx += 64;
  }
  os << "    <rect x=\"" << num(lx) << "\" y=\"" << num(yAxis + 24)
     << "\" width=\"12\" height=\"12\" fill=\"url(#hatch)\"/><text x=\"" << num(lx + 16)
     << "\" y=\"" << num(yAxis + 34) << "\">idle</text>\n";
  os << "  </g>\n";
  os << "</svg>\n";
}
