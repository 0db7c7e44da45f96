//===- Report.cpp - Result rows: table, JSON, CSV -------------------------===//

#include "Report.h"
#include "FileIO.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

using namespace tilegen::run;

const std::vector<Column> &tilegen::run::rowColumns() {
  static const std::vector<Column> Cols = {
      {"kernel", false},
      {"cubin", false},
      {"target", false},
      {"gpu", false},
      {"m", true},
      {"n", true},
      {"k", true},
      {"a", false}, // "bf16/row"
      {"b", false},
      {"c", false},
      {"alpha", true},
      {"beta", true},
      {"inputs", false},
      {"seed", true},
      {"status", false}, // pass, fail, ran, error, hang, timeout, skipped
      {"exit_code", true},
      {"reference", false},
      {"rel_err", true},
      {"tolerance", true},
      {"worst_tile_rel_err", true},
      {"worst_tile_row", true}, // first row of the worst tile
      {"worst_tile_col", true},
      {"bad_elements", true},
      {"cublas_rel_err", true}, // cuBLAS vs the fp64 reference, for context
      {"grid", true},
      {"padded", false}, // the zero-padded problem the kernel ran (--pad), when not MxNxK
      {"pad_copy", false}, // how --pad copied: kernel, or cuMemcpy2DAsync (why)
      {"ms_median", true},
      {"ms_min", true},
      {"ms_p10", true},
      {"ms_p90", true},
      {"ms_stddev", true},
      {"tflops", true},
      {"pad_ms_median", true}, // --bench with --pad: the copies alone (inside ms_median too)
      {"cublas_ms_median", true},
      {"cublas_tflops", true},
      {"ratio_vs_cublas", true},
      {"iters", true},
      {"warmup", true},
      {"l2_flush_bytes", true},
      // fp8 operands: cuBLASLt in place of cuBLAS (vs the fp64 reference, and the baseline).
      {"cublaslt_rel_err", true},
      {"cublaslt_ms_median", true},
      {"cublaslt_tflops", true},
      {"ratio_vs_cublaslt", true},
      {"cublaslt_accumulation", false},
      {"message", false},
      {"command", false},
  };
  return Cols;
}

std::string tilegen::run::fmt(double V, int Precision) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
  return Buf;
}

std::string tilegen::run::fmtFixed(double V, int Decimals) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Decimals, V);
  return Buf;
}

std::string
tilegen::run::encodeRecord(const std::string &Kind,
                           const std::map<std::string, std::string> &Fields) {
  std::string S = Kind;
  for (const auto &F : Fields) {
    S += '\t';
    for (const std::string *Part : {&F.first, &F.second}) {
      for (char C : *Part) {
        if (C == '\\')
          S += "\\\\";
        else if (C == '\t')
          S += "\\t";
        else if (C == '\n')
          S += "\\n";
        else
          S += C;
      }
      if (Part == &F.first)
        S += '=';
    }
  }
  return S + "\n";
}

bool tilegen::run::decodeRecord(const std::string &Line, std::string &Kind,
                                std::map<std::string, std::string> &Fields) {
  std::vector<std::string> Parts(1);
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (C == '\t') {
      Parts.emplace_back();
    } else if (C == '\\' && I + 1 < Line.size()) {
      char E = Line[++I];
      Parts.back() += E == 't' ? '\t' : E == 'n' ? '\n' : E;
    } else {
      Parts.back() += C;
    }
  }
  Kind = Parts[0];
  for (size_t I = 1; I < Parts.size(); ++I) {
    size_t Eq = Parts[I].find('=');
    if (Eq == std::string::npos)
      return false;
    Fields[Parts[I].substr(0, Eq)] = Parts[I].substr(Eq + 1);
  }
  return true;
}

static std::string get(const Row &R, const char *Key) {
  auto It = R.find(Key);
  return It == R.end() ? "" : It->second;
}

static std::string orDash(const std::string &S) { return S.empty() ? "-" : S; }

static std::string shortNum(const std::string &S, int Precision) {
  if (S.empty())
    return "-";
  return fmt(std::strtod(S.c_str(), nullptr), Precision);
}

static std::string fixedNum(const std::string &S, int Decimals) {
  if (S.empty())
    return "-";
  return fmtFixed(std::strtod(S.c_str(), nullptr), Decimals);
}

std::string tilegen::run::formatTable(const std::vector<Row> &Rows) {
  std::vector<std::vector<std::string>> Cells;
  Cells.push_back({"shape (MxNxK)", "status", "rel_err", "worst_tile", "bad",
                   "ms (median)", "p10..p90", "TFLOP/s", "cuBLAS", "ratio"});
  // A dispatch table's runs name their kernel.
  bool Kernels = std::any_of(Rows.begin(), Rows.end(), [&](const Row &R) {
    return get(R, "kernel") != get(Rows.front(), "kernel");
  });
  if (Kernels)
    Cells[0].push_back("kernel");
  for (const Row &R : Rows) {
    std::string Spread = "-";
    if (!get(R, "ms_p10").empty())
      Spread = fixedNum(get(R, "ms_p10"), 3) + ".." +
               fixedNum(get(R, "ms_p90"), 3);
    Cells.push_back({get(R, "m") + "x" + get(R, "n") + "x" + get(R, "k"),
                     orDash(get(R, "status")), shortNum(get(R, "rel_err"), 2),
                     shortNum(get(R, "worst_tile_rel_err"), 2),
                     orDash(get(R, "bad_elements")),
                     fixedNum(get(R, "ms_median"), 3), Spread,
                     fixedNum(get(R, "tflops"), 1),
                     fixedNum(get(R, R.count("cublaslt_tflops") ? "cublaslt_tflops"
                                                                : "cublas_tflops"),
                              1),
                     fixedNum(get(R, R.count("ratio_vs_cublaslt") ? "ratio_vs_cublaslt"
                                                                  : "ratio_vs_cublas"),
                              3)});
    if (Kernels)
      Cells.back().push_back(get(R, "kernel"));
  }
  std::vector<size_t> Width(Cells[0].size(), 0);
  for (const auto &Line : Cells)
    for (size_t I = 0; I < Line.size(); ++I)
      Width[I] = std::max(Width[I], Line[I].size());
  std::string Out;
  for (size_t L = 0; L < Cells.size(); ++L) {
    for (size_t I = 0; I < Cells[L].size(); ++I) {
      std::string C = Cells[L][I];
      // Left-align the first two columns and the kernel, right-align numbers.
      if (I < 2 || I == 10)
        C += std::string(Width[I] - C.size(), ' ');
      else
        C = std::string(Width[I] - C.size(), ' ') + C;
      Out += (I ? "  " : "") + C;
    }
    while (!Out.empty() && Out.back() == ' ')
      Out.pop_back();
    Out += "\n";
  }
  // Messages of rows that did not pass, below the table.
  for (const Row &R : Rows) {
    std::string M = get(R, "message");
    if (!M.empty())
      Out += "  " + get(R, "m") + "x" + get(R, "n") + "x" + get(R, "k") +
             ": " + M + "\n";
  }
  return Out;
}

static std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    if (C == '"')
      Out += "\\\"";
    else if (C == '\\')
      Out += "\\\\";
    else if (C == '\n')
      Out += "\\n";
    else if (C == '\t')
      Out += "\\t";
    else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      Out += Buf;
    } else
      Out += static_cast<char>(C);
  }
  return Out + "\"";
}

/// S if it is a finite number as JSON writes it, else null (JSON has no nan
/// or inf, and strtod also takes "0x1p3", "+1" and " 1").
static std::string jsonNumber(const std::string &S) {
  if (S.empty())
    return "null";
  size_t I = 0;
  auto Digits = [&] {
    size_t Start = I;
    while (I < S.size() && S[I] >= '0' && S[I] <= '9')
      ++I;
    return I > Start;
  };
  if (I < S.size() && S[I] == '-')
    ++I;
  const size_t IntStart = I;
  if (!Digits() || (S[IntStart] == '0' && I - IntStart > 1))
    return "null";
  if (I < S.size() && S[I] == '.' && (++I, !Digits()))
    return "null";
  if (I < S.size() && (S[I] == 'e' || S[I] == 'E')) {
    ++I;
    if (I < S.size() && (S[I] == '+' || S[I] == '-'))
      ++I;
    if (!Digits())
      return "null";
  }
  if (I != S.size() || !std::isfinite(std::strtod(S.c_str(), nullptr)))
    return "null";
  return S;
}

Error tilegen::run::writeJson(const std::string &Path, const DeviceRow &Dev,
                              const std::vector<Row> &Rows) {
  std::ostringstream Out;
  Out << "{\n  \"format\": \"tilegen-run-results\",\n  \"version\": 1,\n";
  Out << "  \"device\": {";
  bool First = true;
  for (const auto &F : Dev) {
    Out << (First ? "" : ", ") << jsonString(F.first) << ": "
        << jsonString(F.second);
    First = false;
  }
  Out << "},\n  \"rows\": [";
  for (size_t I = 0; I < Rows.size(); ++I) {
    Out << (I ? ",\n" : "\n") << "    {";
    bool FirstCol = true;
    for (const Column &C : rowColumns()) {
      std::string V = get(Rows[I], C.Name);
      Out << (FirstCol ? "" : ", ") << jsonString(C.Name) << ": "
          << (C.Numeric ? jsonNumber(V) : jsonString(V));
      FirstCol = false;
    }
    Out << "}";
  }
  Out << "\n  ]\n}\n";
  return writeOutputFile(Path, "--json file", Out.str());
}

static std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\r\n") == std::string::npos)
    return S;
  std::string Out = "\"";
  for (char C : S)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}

Error tilegen::run::writeCsv(const std::string &Path,
                             const std::vector<Row> &Rows) {
  std::ostringstream Out;
  bool First = true;
  for (const Column &C : rowColumns()) {
    Out << (First ? "" : ",") << C.Name;
    First = false;
  }
  Out << "\n";
  for (const Row &R : Rows) {
    First = true;
    for (const Column &C : rowColumns()) {
      Out << (First ? "" : ",") << csvField(get(R, C.Name));
      First = false;
    }
    Out << "\n";
  }
  return writeOutputFile(Path, "--csv file", Out.str());
}
