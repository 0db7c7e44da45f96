//===- FileIO.cpp - Reading inputs and writing results safely -------------===//

#include "FileIO.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace tilegen::run;

std::string tilegen::run::byteSizeText(uint64_t Bytes) {
  char Buf[64];
  if (Bytes >= (uint64_t(1) << 30))
    std::snprintf(Buf, sizeof(Buf), "%.1f GiB", Bytes / double(uint64_t(1) << 30));
  else if (Bytes >= (uint64_t(1) << 20))
    std::snprintf(Buf, sizeof(Buf), "%.1f MiB", Bytes / double(uint64_t(1) << 20));
  else
    std::snprintf(Buf, sizeof(Buf), "%llu bytes", static_cast<unsigned long long>(Bytes));
  return Buf;
}

static const char *fileKindText(mode_t Mode) {
  if (S_ISDIR(Mode))
    return "a directory";
  if (S_ISFIFO(Mode))
    return "a FIFO";
  if (S_ISSOCK(Mode))
    return "a socket";
  if (S_ISCHR(Mode))
    return "a character device";
  if (S_ISBLK(Mode))
    return "a block device";
  if (S_ISLNK(Mode))
    return "a symbolic link";
  return "not a regular file";
}

namespace {
/// Closes a file descriptor when it goes out of scope.
struct FdCloser {
  int Fd;
  ~FdCloser() {
    if (Fd >= 0)
      ::close(Fd);
  }
};
} // namespace

Error tilegen::run::readInputFile(const std::string &Path, const std::string &What,
                                  uint64_t MaxBytes, bool RegularOnly, std::string &Out,
                                  int *OpenErrno) {
  if (OpenErrno)
    *OpenErrno = 0;
  auto Fail = [&](const std::string &Why) {
    return usageError("cannot read " + What + " " + Path + ": " + Why);
  };
  if (Path.empty())
    return usageError("cannot read " + What + ": the file name is empty");
  if (Path.find('\0') != std::string::npos)
    return Fail("the file name holds a NUL byte");
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer (one
  // that has none reads as empty below; with RegularOnly it is refused). It
  // does nothing to a regular file.
  int Flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  int Fd;
  do
    Fd = ::open(Path.c_str(), Flags);
  while (Fd < 0 && errno == EINTR);
  if (Fd < 0) {
    int E = errno;
    if (OpenErrno)
      *OpenErrno = E;
    return Fail(std::strerror(E));
  }
  FdCloser Closer{Fd};
  struct stat St;
  if (::fstat(Fd, &St) != 0)
    return Fail(std::strerror(errno));
  if (S_ISDIR(St.st_mode))
    return Fail(std::string("it is a directory, not a ") + What);
  if (RegularOnly && !S_ISREG(St.st_mode))
    return Fail(std::string("it is ") + fileKindText(St.st_mode) + ", not a regular file");
  // A device may read without end or wait for input forever (a terminal).
  if (!S_ISREG(St.st_mode) && !S_ISFIFO(St.st_mode))
    return Fail(std::string("it is ") + fileKindText(St.st_mode) +
                ", not a regular file or a pipe");
  // Reads of a pipe wait for its writer to write or close (a FIFO that no
  // process has open for writing reads as empty).
  if (S_ISFIFO(St.st_mode)) {
    int FdFlags = ::fcntl(Fd, F_GETFL);
    if (FdFlags < 0 || ::fcntl(Fd, F_SETFL, FdFlags & ~O_NONBLOCK) != 0)
      return Fail(std::strerror(errno));
  }
  const std::string Limit = byteSizeText(MaxBytes) + " a " + What + " may have";
  const uint64_t Size = static_cast<uint64_t>(St.st_size);
  if (S_ISREG(St.st_mode) && Size > MaxBytes)
    return usageError(What + " " + Path + " is " + std::to_string(Size) + " bytes (" +
                      byteSizeText(Size) + "), more than the " + Limit);
  Out.clear();
  std::vector<char> Chunk(1 << 16);
  while (true) {
    ssize_t N = ::read(Fd, Chunk.data(), Chunk.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return Fail(std::strerror(errno));
    if (N == 0)
      break;
    if (Out.size() + static_cast<size_t>(N) > MaxBytes)
      return usageError(What + " " + Path + " holds more than the " + Limit);
    Out.append(Chunk.data(), static_cast<size_t>(N));
  }
  return Error::success();
}

/// Path's directory with a trailing '/' ("" for the working directory), and
/// its last component.
static void splitPath(const std::string &Path, std::string &Dir, std::string &Base) {
  size_t Slash = Path.rfind('/');
  Dir = Slash == std::string::npos ? "" : Path.substr(0, Slash + 1);
  Base = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

namespace {
/// Where and how a result is written (writeOutputFile).
struct OutputTarget {
  enum { Replace, Direct } How = Replace;
  std::string File; ///< the file renamed over (a link's target) or written to
  mode_t Mode = 0;  ///< the existing file's type (0: none yet)
};
} // namespace

/// Follows Path (a symbolic link to its target) to where its results go; false, with the
/// reason in Why, when they cannot go there.
static bool resolveOutput(const std::string &Path, OutputTarget &T, std::string &Why) {
  T = OutputTarget();
  T.File = Path;
  struct stat St;
  if (::lstat(Path.c_str(), &St) != 0) {
    if (errno == ENOENT)
      return true;
    Why = std::strerror(errno);
    return false;
  }
  if (S_ISLNK(St.st_mode)) {
    char *Real = ::realpath(Path.c_str(), nullptr);
    if (!Real) {
      Why = std::string("it is a symbolic link whose target cannot be followed (") +
            std::strerror(errno) + ")";
      return false;
    }
    T.File = Real;
    std::free(Real);
    if (::stat(T.File.c_str(), &St) != 0) {
      Why = "its target " + T.File + ": " + std::strerror(errno);
      return false;
    }
  }
  T.Mode = St.st_mode;
  const std::string Link = T.File == Path ? "" : " (the target of the link, " + T.File + ")";
  if (S_ISDIR(St.st_mode)) {
    Why = "it is a directory" + Link + "; give a file name";
    return false;
  }
  if (S_ISFIFO(St.st_mode) || S_ISCHR(St.st_mode)) {
    T.How = OutputTarget::Direct;
    return true;
  }
  if (!S_ISREG(St.st_mode)) {
    Why = std::string("it is ") + fileKindText(St.st_mode) + Link +
          ", not a regular file, a FIFO or a character device";
    return false;
  }
  return true;
}

Error tilegen::run::checkOutputPath(const std::string &Path, const std::string &Option) {
  if (Path.empty())
    return usageError("option " + Option + " needs a file name, found ''");
  std::string Dir, Base;
  splitPath(Path, Dir, Base);
  if (Base.empty() || Base == "." || Base == "..")
    return usageError("option " + Option + ": '" + Path +
                      "' names a directory; give a file name");
  auto Bad = [&](const std::string &Why) {
    return usageError("option " + Option + ": cannot write '" + Path + "': " + Why);
  };
  OutputTarget T;
  std::string Why;
  if (!resolveOutput(Path, T, Why))
    return Bad(Why);
  if (T.How == OutputTarget::Direct) {
    // A FIFO is opened for writing at the end, when its reader is there.
    if (S_ISFIFO(T.Mode)) {
      if (::access(T.File.c_str(), W_OK) != 0)
        return Bad(std::string("the FIFO is not writable (") + std::strerror(errno) + ")");
      return Error::success();
    }
    int Fd = ::open(T.File.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (Fd < 0)
      return Bad(std::strerror(errno));
    ::close(Fd);
    return Error::success();
  }
  splitPath(T.File, Dir, Base);
  std::string D = Dir.empty() ? "." : Dir;
  struct stat St;
  if (::stat(D.c_str(), &St) != 0)
    return Bad("directory '" + D + "': " + std::strerror(errno));
  if (!S_ISDIR(St.st_mode))
    return Bad("'" + D + "' is not a directory");
  // The results are renamed into place from a temporary file beside it: make
  // one now (and remove it), so that a directory the runner cannot write to
  // (permissions, a read-only file system, /proc) is reported before any run.
  std::string Probe = Dir + "." + Base + ".tmp-XXXXXX";
  std::vector<char> ProbeBuf(Probe.begin(), Probe.end());
  ProbeBuf.push_back('\0');
  int Fd = ::mkstemp(ProbeBuf.data());
  if (Fd < 0)
    return Bad("cannot create a file in directory '" + D + "' (" + std::strerror(errno) +
               ")");
  ::close(Fd);
  ::unlink(ProbeBuf.data());
  return Error::success();
}

Error tilegen::run::checkNotSameFile(const std::string &Path, const std::string &Option,
                                     const std::string &Input, const std::string &What) {
  struct stat Out, In;
  if (::stat(Path.c_str(), &Out) != 0 || ::stat(Input.c_str(), &In) != 0)
    return Error::success();
  // Only a regular file is replaced; two names of one terminal or FIFO are not a loss.
  if (!S_ISREG(Out.st_mode) || Out.st_dev != In.st_dev || Out.st_ino != In.st_ino)
    return Error::success();
  return usageError("option " + Option + ": '" + Path + "' is the " + What + " '" + Input +
                    "' (the same file); the results would overwrite it");
}

/// Writes all of Content to Fd; false with errno set on failure (0: no progress).
static bool writeAll(int Fd, const std::string &Content) {
  size_t Done = 0;
  while (Done < Content.size()) {
    ssize_t N = ::write(Fd, Content.data() + Done, Content.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      if (N == 0)
        errno = 0;
      return false;
    }
    Done += static_cast<size_t>(N);
  }
  return true;
}

static std::string errnoText() {
  return errno ? std::strerror(errno) : "no progress";
}

/// Writes Content to a FIFO or character device: opened without waiting (a FIFO
/// no process reads is an error, not a hang), then written with blocking writes.
static Error writeDirect(const std::string &Path, const OutputTarget &T,
                         const std::function<Error(const std::string &)> &Fail,
                         const std::string &Content) {
  int Fd;
  do
    Fd = ::open(T.File.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  while (Fd < 0 && errno == EINTR);
  if (Fd < 0)
    return Fail(errno == ENXIO && S_ISFIFO(T.Mode)
                    ? std::string("it is a FIFO that no process has open for reading")
                    : std::string(std::strerror(errno)));
  int Flags = ::fcntl(Fd, F_GETFL);
  if (Flags < 0 || ::fcntl(Fd, F_SETFL, Flags & ~O_NONBLOCK) != 0) {
    std::string Why = std::strerror(errno);
    ::close(Fd);
    return Fail(Why);
  }
  if (!writeAll(Fd, Content)) {
    std::string Why = errnoText();
    ::close(Fd);
    return Fail("writing failed (" + Why + ")");
  }
  if (::close(Fd) != 0)
    return Fail("closing it failed (" + std::string(std::strerror(errno)) + ")");
  (void)Path;
  return Error::success();
}

Error tilegen::run::writeOutputFile(const std::string &Path, const std::string &What,
                                    const std::string &Content) {
  std::function<Error(const std::string &)> Fail = [&](const std::string &Why) {
    return usageError("cannot write " + What + " " + Path + ": " + Why);
  };
  OutputTarget T;
  std::string Why;
  if (!resolveOutput(Path, T, Why))
    return Fail(Why);
  if (T.How == OutputTarget::Direct)
    return writeDirect(Path, T, Fail, Content);
  std::string Dir, Base;
  splitPath(T.File, Dir, Base);
  if (Base.empty())
    return Fail("the name ends in '/'");
  // A hidden name beside the destination: rename() within one directory is
  // atomic, and a leftover from a killed run is easy to tell apart.
  std::string Tmp = Dir + "." + Base + ".tmp-XXXXXX";
  std::vector<char> TmpBuf(Tmp.begin(), Tmp.end());
  TmpBuf.push_back('\0');
  int Fd = ::mkstemp(TmpBuf.data());
  if (Fd < 0)
    return Fail("cannot create a temporary file in its directory (" +
                std::string(std::strerror(errno)) + ")");
  Tmp = TmpBuf.data();
  auto FailAndRemove = [&](const std::string &Why) {
    if (Fd >= 0)
      ::close(Fd);
    ::unlink(Tmp.c_str());
    return Fail(Why);
  };
  // mkstemp makes the file 0600; give it the mode a new file would have (or
  // the mode of the file it replaces).
  mode_t Mode;
  if (S_ISREG(T.Mode)) {
    Mode = T.Mode & 07777;
  } else {
    mode_t Mask = ::umask(0);
    ::umask(Mask);
    Mode = 0666 & ~Mask;
  }
  if (::fchmod(Fd, Mode) != 0)
    return FailAndRemove("chmod of the temporary file " + Tmp + " failed (" +
                         std::strerror(errno) + ")");
  if (!writeAll(Fd, Content))
    return FailAndRemove("writing the temporary file " + Tmp + " failed (" + errnoText() +
                         ")");
  // Some file systems cannot sync (EINVAL); the rename below is still atomic.
  if (::fsync(Fd) != 0 && errno != EINVAL && errno != EROFS)
    return FailAndRemove("flushing the temporary file " + Tmp + " failed (" +
                         std::strerror(errno) + ")");
  int CloseRc = ::close(Fd);
  Fd = -1;
  if (CloseRc != 0)
    return FailAndRemove("closing the temporary file " + Tmp + " failed (" +
                         std::strerror(errno) + ")");
  if (::rename(Tmp.c_str(), T.File.c_str()) != 0)
    return FailAndRemove("renaming the temporary file " + Tmp + " onto " +
                         (T.File == Path ? std::string("it") : T.File) + " failed (" +
                         std::strerror(errno) + ")");
  // Make the rename itself durable (best effort).
  std::string D = Dir.empty() ? "." : Dir;
  int DirFd = ::open(D.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (DirFd >= 0) {
    (void)::fsync(DirFd);
    ::close(DirFd);
  }
  return Error::success();
}
