// A hostile bot that reaches for files: `read PATH...` and `write PATH...`
// print "PATH ok" or "PATH ENOENT" (the errno's name) for each; `fill DIR`
// writes 1 MiB blocks into DIR/fill until a write fails and prints
// "filled BYTES ERRNO". Exits 0: the test reads what it printed.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void Report(const char* path, int err) {
  std::printf("%s %s\n", path, err == 0 ? "ok" : strerrorname_np(err));
}

void Read(const char* path) {
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return Report(path, errno);
  char c;
  const ssize_t n = read(fd, &c, 1);
  Report(path, n < 0 && errno != EISDIR ? errno : 0);
  close(fd);
}

void Write(const char* path) {
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return Report(path, errno);
  Report(path, write(fd, "x", 1) == 1 ? 0 : errno);
  close(fd);
}

void Fill(const std::string& dir) {
  const std::string path = dir + "/fill";
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return Report(path.c_str(), errno);
  std::vector<char> block(1 << 20, 'f');
  long long total = 0;
  int err = 0;
  while (total < (1LL << 36)) {
    const ssize_t n = write(fd, block.data(), block.size());
    if (n < 0) {
      err = errno;
      break;
    }
    total += n;
    if (static_cast<size_t>(n) < block.size()) {
      // A short write: the next one says why.
      continue;
    }
  }
  std::printf("filled %lld %s\n", total, err == 0 ? "ok" : strerrorname_np(err));
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s read|write|fill PATH...\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  for (int i = 2; i < argc; ++i) {
    if (mode == "read") Read(argv[i]);
    if (mode == "write") Write(argv[i]);
    if (mode == "fill") Fill(argv[i]);
  }
  return 0;
}
