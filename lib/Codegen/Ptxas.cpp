//===- Ptxas.cpp - running ptxas ------------------------------------------===//

#include "tilegen/Codegen/Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace tilegen;

static std::string readFile(llvm::StringRef path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

/// Runs `program args...` with a time limit; returns exit code, stdout+stderr text.
static int runCaptured(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                       unsigned timeout, std::string &output, std::string &error) {
  llvm::SmallString<128> outPath;
  llvm::sys::fs::createTemporaryFile("tilegen-ptxas", "log", outPath);
  llvm::sys::RemoveFileOnSignal(outPath);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(outPath),
                                                llvm::StringRef(outPath)};
  llvm::SmallVector<llvm::StringRef> argv{program};
  for (const std::string &a : args)
    argv.push_back(a);
  bool failedToRun = false;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, timeout, 0, &error,
                                     &failedToRun);
  output = readFile(outPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::DontRemoveFileOnSignal(outPath);
  if (failedToRun)
    return -100;
  return rc;
}

llvm::Expected<PtxasTool> tilegen::findPtxas(llvm::StringRef explicitPath) {
  std::string path;
  if (const char *env = std::getenv("TILEGEN_PTXAS")) {
    // An explicit choice that is wrong is reported as such, not as "not found".
    if (!llvm::sys::fs::can_execute(env) || llvm::sys::fs::is_directory(env))
      return llvm::createStringError(
          llvm::Twine("TILEGEN_PTXAS=") + env +
          " is not an executable: point it at ptxas from the CUDA toolkit 12.8 or newer, or "
          "unset it to search PATH and /usr/local/cuda/bin; --emit=ptx works without it");
    path = env;
  } else if (!explicitPath.empty())
    path = explicitPath.str();
  else if (auto found = llvm::sys::findProgramByName("ptxas"))
    path = *found;
  else if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    path = "/usr/local/cuda/bin/ptxas";
  if (path.empty() || !llvm::sys::fs::can_execute(path))
    return llvm::createStringError(
        "ptxas not found (looked at $TILEGEN_PTXAS, PATH and /usr/local/cuda/bin): install the "
        "CUDA toolkit 12.8 or newer (it brings ptxas), or point TILEGEN_PTXAS at it; "
        "--emit=ptx works without it");
  PtxasTool tool;
  tool.path = path;
  std::string out, err;
  int rc = runCaptured(path, {"--version"}, 20, out, err);
  if (rc != 0)
    return llvm::createStringError("cannot run '" + path + " --version': " +
                                   (err.empty() ? out : err));
  llvm::Regex release("release ([0-9]+)\\.([0-9]+)");
  llvm::SmallVector<llvm::StringRef> m;
  if (!release.match(out, &m))
    return llvm::createStringError("cannot read the version of '" + path + "' from: " + out);
  tool.major = std::stoi(m[1].str());
  tool.minor = std::stoi(m[2].str());
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(out).trim().split(lines, '\n');
  tool.versionLine = lines.empty() ? out : lines.back().trim().str();
  return tool;
}

std::pair<unsigned, unsigned> tilegen::minimumPtxasFor(const NVTarget &target) {
  if (target.name() == "sm_103a")
    return {12, 9};
  if (target.major() >= 10)
    return {12, 8};
  if (target.major() == 9)
    return {12, 0};
  if (target.minor() == 9)
    return {11, 8};
  return {11, 1};
}

llvm::Expected<PtxasResult> tilegen::runPtxas(const PtxasTool &tool, llvm::StringRef ptx,
                                              const NVTarget &target,
                                              llvm::StringRef cubinPath,
                                              llvm::StringRef extraOptions,
                                              unsigned timeoutSeconds) {
  auto [needMajor, needMinor] = minimumPtxasFor(target);
  if (tool.major < needMajor || (tool.major == needMajor && tool.minor < needMinor))
    return llvm::createStringError(llvm::formatv(
        "ptxas at {0} is CUDA {1}.{2}; target {3} needs CUDA {4}.{5} or newer: install a newer "
        "CUDA toolkit (or point TILEGEN_PTXAS at its ptxas); --emit=ptx works without it",
        tool.path, tool.major, tool.minor, target.name(), needMajor, needMinor));
  // The output first: a path ptxas cannot open (a folder, a missing or read-only place) is the
  // caller's error, not ptxas rejecting the PTX.
  {
    int fd;
    if (std::error_code ec = llvm::sys::fs::openFileForWrite(cubinPath, fd))
      return llvm::createStringError("cannot write the cubin '" + cubinPath.str() + "': " +
                                     ec.message());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  llvm::SmallString<128> ptxPath;
  if (auto ec = llvm::sys::fs::createTemporaryFile("tilegen", "ptx", ptxPath))
    return llvm::createStringError("cannot create a temporary file: " + ec.message());
  // An interrupted run (SIGINT, SIGTERM) leaves neither the temporary PTX nor a partial cubin.
  llvm::sys::RemoveFileOnSignal(ptxPath);
  llvm::sys::RemoveFileOnSignal(cubinPath);
  struct Forget {
    llvm::StringRef a, b;
    ~Forget() {
      llvm::sys::DontRemoveFileOnSignal(a);
      llvm::sys::DontRemoveFileOnSignal(b);
    }
  } forget{ptxPath, cubinPath};
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (ec)
      return llvm::createStringError("cannot write " + ptxPath.str().str() + ": " +
                                     ec.message());
    os << ptx;
  }
  auto argsFor = [&](llvm::ArrayRef<llvm::StringRef> extra, llvm::StringRef out) {
    std::vector<std::string> args = {"-arch=" + target.name().str(), "-v", "-O3"};
    for (llvm::StringRef e : extra)
      args.push_back(e.str());
    args.push_back(std::string(ptxPath));
    args.push_back("-o");
    args.push_back(out.str());
    return args;
  };
  llvm::SmallVector<llvm::StringRef> extra;
  extraOptions.split(extra, ' ', -1, false);
  std::string out, err;
  int rc = runCaptured(tool.path, argsFor(extra, cubinPath), timeoutSeconds, out, err);
  // ExecuteAndWait answers -2 both for a child it stopped at the time limit ("Child timed out")
  // and for one a signal ended (the signal's name).
  if (rc == -2 && llvm::StringRef(err).contains("timed out")) {
    llvm::sys::fs::remove(ptxPath);
    llvm::sys::fs::remove(cubinPath);
    return llvm::createStringError(llvm::formatv(
        "ptxas did not finish within {0} s for target {1} (raise --ptxas-timeout)",
        timeoutSeconds, target.name()));
  }
  if (rc == -2) {
    llvm::sys::fs::remove(ptxPath);
    llvm::sys::fs::remove(cubinPath);
    return llvm::createStringError(llvm::formatv(
        "ptxas ({0}) was ended by a signal ({1}) for target {2}: it crashed or was killed (out "
        "of memory, for one)",
        tool.path, err.empty() ? std::string("unknown") : err, target.name()));
  }
  if (rc != 0 && !extra.empty()) {
    // The user's options may be what ptxas rejects: if the PTX assembles without them, the
    // error is theirs, not tilegen's.
    llvm::SmallString<128> probe;
    bool probed = !llvm::sys::fs::createTemporaryFile("tilegen-probe", "cubin", probe);
    if (probed)
      llvm::sys::RemoveFileOnSignal(probe);
    std::string probeOut, probeErr;
    int probeRc = probed ? runCaptured(tool.path, argsFor({}, probe), timeoutSeconds, probeOut,
                                       probeErr)
                         : -1;
    if (probed) {
      llvm::sys::fs::remove(probe);
      llvm::sys::DontRemoveFileOnSignal(probe);
    }
    if (probeRc == 0) {
      llvm::sys::fs::remove(ptxPath);
      llvm::sys::fs::remove(cubinPath);
      // ptxas's first lines say why; an option that makes every instruction illegal (another
      // --gpu-name) would otherwise list each of them.
      std::string msg = out.empty() ? err : out;
      llvm::SmallVector<llvm::StringRef> lines;
      llvm::StringRef(msg).trim().split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      constexpr size_t kShown = 3;
      std::string why;
      for (size_t i = 0; i < std::min(lines.size(), kShown); ++i)
        why += (i ? "\n  " : "") + lines[i].trim().str();
      if (lines.size() > kShown)
        why += "\n  (" + std::to_string(lines.size() - kShown) + " more lines)";
      return llvm::createStringError("ptxas rejected --ptxas-options '" + extraOptions.str() +
                                     "' for target " + target.name().str() + ": " + why);
    }
  }
  llvm::sys::fs::remove(ptxPath);
  if (rc != 0) {
    llvm::sys::fs::remove(cubinPath);
    // Point at the PTX line ptxas names.
    std::string msg = "tilegen bug: ptxas rejected the PTX tilegen emitted for target " +
                      target.name().str() + " (please report it with the description)\n" +
                      out;
    llvm::Regex lineRe("line ([0-9]+)");
    llvm::SmallVector<llvm::StringRef> m;
    if (lineRe.match(out, &m)) {
      unsigned line = std::stoul(m[1].str());
      llvm::SmallVector<llvm::StringRef> lines;
      ptx.split(lines, '\n');
      if (line >= 1 && line <= lines.size())
        msg += llvm::formatv("PTX line {0}: {1}\n", line, lines[line - 1].trim()).str();
    }
    if (!err.empty())
      msg += err;
    return llvm::createStringError(llvm::StringRef(msg).rtrim().str());
  }
  // An option that makes ptxas print instead of assemble (--version, --help) exits 0 and
  // leaves the cubin empty. (Only a regular file is read back: a caller that wants no cubin
  // passes /dev/null.)
  if (llvm::sys::fs::is_regular_file(cubinPath)) {
    std::string cubin = readFile(cubinPath);
    if (cubin.size() < 64 || llvm::StringRef(cubin).take_front(4) != "\x7f" "ELF") {
      llvm::sys::fs::remove(cubinPath);
      return llvm::createStringError(
          "ptxas finished but wrote no cubin to '" + cubinPath.str() + "'" +
          (extra.empty() ? std::string()
                         : " (--ptxas-options '" + extraOptions.str() +
                               "': an option such as --version or --help makes ptxas print "
                               "instead of assemble)"));
    }
  }
  PtxasResult result;
  result.info = out;
  return result;
}
