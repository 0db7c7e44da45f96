//===- FileIO.cpp - Reading inputs and writing results safely -------------===//

#include "FileIO.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
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
  if (S_ISCHR(Mode) || S_ISBLK(Mode))
    return "a device";
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
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer when only
  // regular files are wanted (it is refused below).
  int Flags = O_RDONLY | O_CLOEXEC | (RegularOnly ? O_NONBLOCK : 0);
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

Error tilegen::run::checkOutputPath(const std::string &Path, const std::string &Option) {
  if (Path.empty())
    return usageError("option " + Option + " needs a file name, found ''");
  std::string Dir, Base;
  splitPath(Path, Dir, Base);
  if (Base.empty() || Base == "." || Base == "..")
    return usageError("option " + Option + ": '" + Path +
                      "' names a directory; give a file name");
  std::string D = Dir.empty() ? "." : Dir;
  struct stat St;
  if (::stat(D.c_str(), &St) != 0)
    return usageError("option " + Option + ": cannot write '" + Path + "': directory '" + D +
                      "': " + std::strerror(errno));
  if (!S_ISDIR(St.st_mode))
    return usageError("option " + Option + ": cannot write '" + Path + "': '" + D +
                      "' is not a directory");
  return Error::success();
}

Error tilegen::run::writeFileAtomically(const std::string &Path, const std::string &What,
                                        const std::string &Content) {
  auto Fail = [&](const std::string &Why) {
    return usageError("cannot write " + What + " " + Path + ": " + Why);
  };
  std::string Dir, Base;
  splitPath(Path, Dir, Base);
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
  struct stat Old;
  if (::stat(Path.c_str(), &Old) == 0 && S_ISREG(Old.st_mode)) {
    Mode = Old.st_mode & 07777;
  } else {
    mode_t Mask = ::umask(0);
    ::umask(Mask);
    Mode = 0666 & ~Mask;
  }
  if (::fchmod(Fd, Mode) != 0)
    return FailAndRemove("chmod of the temporary file " + Tmp + " failed (" +
                         std::strerror(errno) + ")");
  size_t Done = 0;
  while (Done < Content.size()) {
    ssize_t N = ::write(Fd, Content.data() + Done, Content.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return FailAndRemove("writing the temporary file " + Tmp + " failed (" +
                           std::string(N < 0 ? std::strerror(errno) : "no progress") +
                           ")");
    Done += static_cast<size_t>(N);
  }
  // Some file systems cannot sync (EINVAL); the rename below is still atomic.
  if (::fsync(Fd) != 0 && errno != EINVAL && errno != EROFS)
    return FailAndRemove("flushing the temporary file " + Tmp + " failed (" +
                         std::strerror(errno) + ")");
  int CloseRc = ::close(Fd);
  Fd = -1;
  if (CloseRc != 0)
    return FailAndRemove("closing the temporary file " + Tmp + " failed (" +
                         std::strerror(errno) + ")");
  if (::rename(Tmp.c_str(), Path.c_str()) != 0)
    return FailAndRemove("renaming the temporary file " + Tmp + " onto it failed (" +
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
