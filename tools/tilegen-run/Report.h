//===- Report.h - Result rows: table, JSON, CSV -----------------*- C++ -*-===//
//
// One row per shape, with stable column names for scripts. The child process
// that ran a shape sends its row to the parent as one line on a pipe; the
// parent prints the table and writes --json / --csv.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_REPORT_H
#define TILEGEN_RUN_REPORT_H

#include "Error.h"

#include <map>
#include <string>
#include <vector>

namespace tilegen {
namespace run {

/// Column name -> value as text ("" = not measured).
using Row = std::map<std::string, std::string>;

/// The columns of --csv and of each --json row, in order. Numeric columns are
/// written as JSON numbers (or null when empty).
struct Column {
  const char *Name;
  bool Numeric;
};
const std::vector<Column> &rowColumns();

/// Device facts for headers: gpu, cc, sms, clock_mhz, mem_clock_mhz,
/// l2_bytes, driver, cublas.
using DeviceRow = std::map<std::string, std::string>;

/// One-line wire format: "KIND\tkey=value\t..." with \t, \n, \\ escaped.
std::string encodeRecord(const std::string &Kind,
                         const std::map<std::string, std::string> &Fields);
bool decodeRecord(const std::string &Line, std::string &Kind,
                  std::map<std::string, std::string> &Fields);

/// The human-readable summary table.
std::string formatTable(const std::vector<Row> &Rows);

Error writeJson(const std::string &Path, const DeviceRow &Dev,
                const std::vector<Row> &Rows);
Error writeCsv(const std::string &Path, const std::vector<Row> &Rows);

/// "%.3g"-style formatting used across reports.
std::string fmt(double V, int Precision = 4);
std::string fmtFixed(double V, int Decimals);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_REPORT_H
