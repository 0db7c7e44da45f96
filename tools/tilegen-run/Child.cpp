//===- Child.cpp - Running one shape in a contained child process ---------===//

#include "Child.h"
#include "Session.h"

#include <cerrno>
#include <chrono>
#include <thread>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

using namespace tilegen::run;

namespace {
/// The pipe to the parent; -1 when running in-process.
int ReportFd = -1;

void writeAll(int Fd, const std::string &S) {
  size_t Done = 0;
  while (Done < S.size()) {
    ssize_t N = ::write(Fd, S.data() + Done, S.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Done += static_cast<size_t>(N);
  }
}

void printError(const std::string &Msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "tilegen-run: error: %s\n", Msg.c_str());
  std::fflush(stderr);
}
} // namespace

void tilegen::run::reportPhase(const std::string &Phase, bool OnGpu) {
  if (ReportFd < 0)
    return;
  writeAll(ReportFd, encodeRecord("phase", {{"phase", Phase},
                                            {"gpu", OnGpu ? "1" : "0"}}));
}

void tilegen::run::printDeviceHeader(const DeviceRow &Dev) {
  auto Get = [&](const char *K) {
    auto It = Dev.find(K);
    return It == Dev.end() ? std::string("?") : It->second;
  };
  double L2MiB = std::strtod(Get("l2_bytes").c_str(), nullptr) / (1 << 20);
  double MemGiB =
      std::strtod(Get("memory_bytes").c_str(), nullptr) / double(1ull << 30);
  std::printf("device %s: %s (%s), %s SMs, SM clock %s MHz, memory clock %s "
              "MHz (%s-bit), L2 %.0f MiB, %.1f GiB, driver %s\n",
              Get("device").c_str(), Get("gpu").c_str(), Get("arch").c_str(),
              Get("sms").c_str(), Get("clock_mhz").c_str(),
              Get("mem_clock_mhz").c_str(), Get("mem_bus_bits").c_str(), L2MiB,
              MemGiB, Get("driver").c_str());
  if (Dev.count("cublas"))
    std::printf("cuBLAS: %s\n", Get("cublas").c_str());
  if (Dev.count("cublaslt"))
    std::printf("cuBLASLt: %s\n", Get("cublaslt").c_str());
  if (Dev.count("kernel_regs"))
    std::printf("kernel: %s registers/thread, %s bytes static shared memory\n",
                Get("kernel_regs").c_str(), Get("kernel_static_smem").c_str());
  std::fflush(stdout);
}

void tilegen::run::reportDevice(const DeviceRow &Dev) {
  if (ReportFd < 0)
    return;
  writeAll(ReportFd, encodeRecord("device", Dev));
}

Row tilegen::run::baseRow(const Options &Opts, const Manifest &Man,
                          const Problem &P) {
  Row R;
  R["kernel"] = Man.Kernel;
  R["cubin"] = Man.CubinPath;
  R["target"] = Man.Target.Name;
  R["m"] = std::to_string(P.M);
  R["n"] = std::to_string(P.N);
  R["k"] = std::to_string(P.K);
  R["a"] = operandText(Man.A);
  R["b"] = operandText(Man.B);
  R["c"] = operandText(Man.C);
  R["alpha"] = fmt(Opts.Alpha, 17);
  R["beta"] = fmt(Opts.Beta, 17);
  InputDistribution Dist;
  Dist.IntegerValued = Opts.IntInputs;
  Dist.Seed = Opts.Seed;
  Dist.BlockExpLo = Opts.BlockExpLo;
  Dist.BlockExpHi = Opts.BlockExpHi;
  R["inputs"] = describeInputs(Man, Dist);
  R["seed"] = std::to_string(Opts.Seed);
  R["command"] = reproduceCommand(Opts, P);
  return R;
}

ShapeOutcome tilegen::run::runShapeInProcess(const Options &Opts,
                                             const Manifest &Man,
                                             const Problem &P,
                                             bool PrintDevice) {
  ShapeOutcome Out;
  Row &R = Out.R;
  R = baseRow(Opts, Man, P);
  auto Fail = [&](const Error &E) {
    printError(E.message());
    R["status"] = "error";
    R["message"] = E.message();
    Out.ExitCode = E.code();
    R["exit_code"] = std::to_string(Out.ExitCode);
    return Out;
  };

  GpuSession S(Opts, Man);
  DeviceRow Dev;
  Error E = S.open(Dev);
  if (!Dev.empty())
    R["gpu"] = Dev["gpu"];
  if (E) {
    Out.Fatal = true; // the same for every shape
    return Fail(E);
  }
  reportDevice(Dev);
  Out.Dev = Dev;
  if (PrintDevice)
    printDeviceHeader(Dev);

  E = S.prepare(P);
  if (E)
    return Fail(E);
  R["grid"] = std::to_string(S.grid());
  const Problem &KP = S.kernelProblem();
  if (KP != P)
    R["padded"] = KP.str();
  if (!S.padCopyHow().empty())
    R["pad_copy"] = S.padCopyHow();
  // From a dispatch table (several kernels in one log), the line names the kernel.
  std::printf("run %s%s: %sgrid %llu CTAs (%s rule, %llu tiles of %ux%u), block "
              "%ux%ux%u, cluster %ux%ux%u, dynamic smem %llu bytes\n",
              P.str().c_str(), KP != P ? (" zero-padded to " + KP.str()).c_str() : "",
              Opts.DispatchArg.empty() ? "" : ("kernel " + Man.Kernel + ", ").c_str(),
              static_cast<unsigned long long>(S.grid()),
              Man.Rule == GridRule::Tiles        ? "tiles"
              : Man.Rule == GridRule::Persistent ? "persistent"
                                                 : "stream_k",
              static_cast<unsigned long long>(tileCount(Man, KP)), Man.TileM,
              Man.TileN, Man.Block[0], Man.Block[1], Man.Block[2],
              Man.Cluster[0], Man.Cluster[1], Man.Cluster[2],
              static_cast<unsigned long long>(Man.DynamicSmem));
  if (!S.padCopyHow().empty())
    std::printf("pad: copies into and out of the padded buffers by %s\n",
                S.padCopyHow() == "kernel" ? "tilegen-run's copy kernel"
                                           : S.padCopyHow().c_str());
  std::fflush(stdout);

  bool Passed = true;
  if (Opts.Check) {
    E = S.check(R, Passed);
    if (E)
      return Fail(E);
  } else {
    E = S.runOnce();
    if (E)
      return Fail(E);
  }
  if (Opts.Bench) {
    E = S.bench(R);
    if (E)
      return Fail(E);
  }
  R["status"] = !Opts.Check ? "ran" : Passed ? "pass" : "fail";
  Out.ExitCode = Passed ? ExitPass : ExitCheckFailed;
  R["exit_code"] = std::to_string(Out.ExitCode);
  return Out;
}

static std::string signalText(int Sig) {
  const char *D = strsignal(Sig);
  return "signal " + std::to_string(Sig) + (D ? std::string(" (") + D + ")" : "");
}

ShapeOutcome tilegen::run::runShapeContained(const Options &Opts,
                                             const Manifest &Man,
                                             const Problem &P,
                                             DeviceRow &Dev) {
  ShapeOutcome Out;
  Out.R = baseRow(Opts, Man, P);
  auto Fail = [&](int Code, const std::string &Status, const std::string &Msg) {
    printError(Msg);
    Out.ExitCode = Code;
    Out.R["status"] = Status;
    Out.R["message"] = Msg;
    Out.R["exit_code"] = std::to_string(Code);
    return Out;
  };

  int Fds[2];
  if (::pipe(Fds) != 0)
    return Fail(ExitCuda, "error", std::string("pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t Parent = ::getpid();
  pid_t Pid = ::fork();
  if (Pid < 0) {
    ::close(Fds[0]);
    ::close(Fds[1]);
    return Fail(ExitCuda, "error", std::string("fork: ") + std::strerror(errno));
  }
  if (Pid == 0) {
    // The child: do the GPU work, send the row, and leave without running the
    // parent's atexit handlers.
#ifdef __linux__
    // If the runner is killed, a child stuck in a hung kernel goes with it
    // instead of holding the GPU (and the parent's deadline) forever.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != Parent)
      ::_exit(ExitHang);
#else
    (void)Parent;
#endif
    ::close(Fds[0]);
    ReportFd = Fds[1];
    ShapeOutcome Res = runShapeInProcess(Opts, Man, P, Dev.empty());
    std::map<std::string, std::string> Fields = Res.R;
    std::map<std::string, std::string> Meta = {
        {"exit_code", std::to_string(Res.ExitCode)},
        {"fatal", Res.Fatal ? "1" : "0"}};
    std::fflush(stdout);
    std::fflush(stderr);
    writeAll(ReportFd, encodeRecord("meta", Meta));
    writeAll(ReportFd, encodeRecord("row", Fields));
    ::close(ReportFd);
    ::_exit(Res.ExitCode);
  }

  ::close(Fds[1]);
  using Clock = std::chrono::steady_clock;
  const bool HasDeadline = Opts.TimeoutSec > 0;
  const auto Deadline =
      Clock::now() + std::chrono::milliseconds(
                         static_cast<int64_t>(Opts.TimeoutSec * 1000.0));
  std::string Buffer, Phase = "starting", Kind;
  bool PhaseOnGpu = false, GotRow = false, TimedOut = false;
  std::map<std::string, std::string> Meta;
  while (true) {
    int Wait = -1;
    if (HasDeadline) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - Clock::now())
                      .count();
      if (Left <= 0) {
        TimedOut = true;
        break;
      }
      Wait = static_cast<int>(std::min<int64_t>(Left, 1000));
    }
    struct pollfd Pfd = {Fds[0], POLLIN, 0};
    int Ready = ::poll(&Pfd, 1, Wait);
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready <= 0)
      continue;
    char Chunk[4096];
    ssize_t N = ::read(Fds[0], Chunk, sizeof(Chunk));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break; // EOF: the child exited (or closed the pipe)
    Buffer.append(Chunk, static_cast<size_t>(N));
    size_t Nl;
    while ((Nl = Buffer.find('\n')) != std::string::npos) {
      std::string Line = Buffer.substr(0, Nl);
      Buffer.erase(0, Nl + 1);
      std::map<std::string, std::string> Fields;
      if (!decodeRecord(Line, Kind, Fields))
        continue;
      if (Kind == "phase") {
        Phase = Fields["phase"];
        PhaseOnGpu = Fields["gpu"] == "1";
      } else if (Kind == "device") {
        Dev = Fields;
      } else if (Kind == "meta") {
        Meta = Fields;
      } else if (Kind == "row") {
        Out.R = Fields;
        GotRow = true;
      }
    }
  }
  ::close(Fds[0]);

  int Status = 0;
  if (TimedOut) {
    ::kill(Pid, SIGKILL);
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    std::string Secs = fmt(Opts.TimeoutSec, 6);
    if (PhaseOnGpu)
      return Fail(ExitHang, "hang",
                  "hang: kernel did not finish within " + Secs + " s (during " +
                      Phase + ", problem " + P.str() +
                      "); the process running it was killed");
    return Fail(ExitHang, "timeout",
                "timeout: " + Phase + " did not finish within " + Secs +
                    " s (problem " + P.str() +
                    "); the process running it was killed (raise --timeout)");
  }
  // The child closed its end; it may still be tearing the CUDA context down. Reap it within the
  // same deadline, or kill it: a stuck teardown must not hang the runner.
  for (;;) {
    pid_t R = ::waitpid(Pid, &Status, HasDeadline ? WNOHANG : 0);
    if (R == Pid || (R < 0 && errno != EINTR))
      break;
    if (R == 0 && Clock::now() >= Deadline) {
      ::kill(Pid, SIGKILL);
      while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (R == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(Status))
    return Fail(ExitCuda, "error",
                "the process running problem " + P.str() + " died from " +
                    signalText(WTERMSIG(Status)) + " during " + Phase);
  int Code = WIFEXITED(Status) ? WEXITSTATUS(Status) : ExitCuda;
  if (!GotRow)
    return Fail(Code ? Code : ExitCuda, "error",
                "the process running problem " + P.str() + " exited with code " +
                    std::to_string(Code) + " during " + Phase +
                    " without a result");
  Out.ExitCode = Code;
  Out.Fatal = Meta["fatal"] == "1";
  return Out;
}
